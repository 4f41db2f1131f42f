// A server that parses tool calls itself (some do with no tools asked for, where the model's chat
// template reads its `<tool_call>` tags) sends them apart from the text, in `tool_calls`. They come
// back here as the text the model wrote, so the agent reads them as any other call.

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
  // The call each index is writing now. A call's first piece brings its name (and id) whole, as
  // OpenAI's API streams them; Ollama sends every call under index 0, so a piece with a name, or
  // another id, starts the next call.
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
        const name = typeof piece.function?.name === 'string' ? piece.function.name : undefined;
        const id = typeof piece.id === 'string' ? piece.id : undefined;
        let call = writing.get(index);
        const next = !call || (name !== undefined && call.name !== '') || (id !== undefined && call.id !== undefined && id !== call.id);
        if (next) {
          call = { ...(id === undefined ? {} : { id }), name: '', args: '' };
          calls.push(call);
          writing.set(index, call);
        }
        if (name !== undefined) call!.name += name;
        const args = piece.function?.arguments;
        // Streamed as pieces of a JSON text; sent whole, sometimes as the object itself.
        if (typeof args === 'string') call!.args += args;
        else if (args !== undefined && args !== null) call!.args += JSON.stringify(args);
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

/** The arguments as JSON: as sent where they read as JSON (none: `{}`), else as a string, which the agent reports as arguments it cannot read. */
function argumentsText(args: string): string {
  if (args.trim() === '') return '{}';
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return JSON.stringify(args);
  }
}
