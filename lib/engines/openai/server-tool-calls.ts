// A server that parses tool calls itself (some do with no tools asked for, where the model's chat
// template reads its `<tool_call>` tags) sends them apart from the text, in `tool_calls`. They come
// back here as the text the model wrote, so the agent reads them as any other call.
import { isWholeJson } from '../../text/is-whole-json';

/** One call of a chunk's `tool_calls`: streamed in pieces under its `index`, or sent whole. */
export interface ServerToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: unknown };
}

interface CollectedCall {
  id?: string;
  name: string;
  args: string;
}

/** Collects a reply's `tool_calls`, piece by piece, and writes them out as tagged calls. */
export function createServerToolCalls() {
  const calls: CollectedCall[] = [];
  // The call each index is writing now (see `beginsAnother`).
  const writing = new Map<number, CollectedCall>();
  return {
    /** Adds a chunk's `tool_calls`; answers how many pieces it held (anything that is no list of calls holds none). */
    add(toolCalls: unknown): number {
      if (!Array.isArray(toolCalls)) return 0;
      let pieces = 0;
      toolCalls.forEach((value: unknown, position) => {
        if (typeof value !== 'object' || value === null) return;
        const piece = value as ServerToolCall;
        const index = typeof piece.index === 'number' ? piece.index : position;
        const name = filled(piece.function?.name);
        const id = filled(piece.id);
        let call = writing.get(index);
        const args = piece.function?.arguments;
        if (!call || beginsAnother(call, id, name, args)) {
          call = { ...(id === undefined ? {} : { id }), name: '', args: '' };
          calls.push(call);
          writing.set(index, call);
        }
        if (name !== undefined && call.name === '') call.name = name;
        // Streamed as pieces of a JSON text; sent whole, sometimes as the object itself.
        if (typeof args === 'string') call.args += args;
        else if (args !== undefined && args !== null) call.args += JSON.stringify(args);
        pieces += 1;
      });
      return pieces;
    },
    /** The calls as tagged text (Qwen's and Hermes's `<tool_call>`, which the agent reads in every format), or '' where none came. */
    text(): string {
      return calls
        .filter((call) => call.name !== '')
        .map((call) => `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${argumentsText(call.args)}}\n</tool_call>`)
        .join('\n');
    },
  };
}

/**
 * Whether a piece under an index that already writes a call begins the next one. A call's first
 * piece brings its name (and id) whole, as OpenAI's API streams them; Ollama sends every call under
 * index 0, so another id, or a name where the call has one, begins the next call. Older llama.cpp
 * and llama-cpp-python repeat the call's name and id on every piece: the same id, or the same name
 * before the arguments are whole or with none, goes on.
 */
function beginsAnother(call: CollectedCall, id: string | undefined, name: string | undefined, args: unknown): boolean {
  if (id !== undefined && call.id !== undefined) return id !== call.id;
  if (name === undefined || call.name === '') return false;
  // The same name again, once the arguments are whole, is another call only if it brings arguments of its own.
  const bringsArguments = typeof args === 'string' ? args.trim() !== '' : args !== undefined && args !== null;
  return name !== call.name || (isWholeJson(call.args) && bringsArguments);
}

/** A string with something in it; servers send `""` for a name or id they do not repeat. */
function filled(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The arguments as JSON: as sent where they read as JSON (none: `{}`), else as a string, which the agent reports as arguments it cannot read. */
function argumentsText(args: string): string {
  if (args.trim() === '') return '{}';
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return JSON.stringify(args);
  }
}
