// A server that parses tool calls itself (some do with no tools asked for, where the model's chat
// template reads its `<tool_call>` tags) sends them apart from the text, in `tool_calls`. They come
// back here as the text the model wrote, so the agent reads them as any other call.

/** One call of a chunk's `tool_calls`: streamed in pieces under its `index`, or sent whole. */
export interface ServerToolCall {
  index?: number;
  function?: { name?: string; arguments?: unknown };
}

/** Collects a reply's `tool_calls`, piece by piece, and writes them out as tagged calls. */
export function createServerToolCalls() {
  const calls = new Map<number, { name: string; args: string }>();
  return {
    /** Adds a chunk's `tool_calls`; anything that is no list of calls is left out. */
    add(toolCalls: unknown): boolean {
      if (!Array.isArray(toolCalls)) return false;
      let added = false;
      toolCalls.forEach((value: unknown, position) => {
        if (typeof value !== 'object' || value === null) return;
        const call = value as ServerToolCall;
        const index = typeof call.index === 'number' ? call.index : position;
        const so = calls.get(index) ?? { name: '', args: '' };
        const name = call.function?.name;
        const args = call.function?.arguments;
        if (typeof name === 'string') so.name += name;
        // Streamed as pieces of a JSON text; sent whole, sometimes as the object itself.
        if (typeof args === 'string') so.args += args;
        else if (args !== undefined && args !== null) so.args += JSON.stringify(args);
        calls.set(index, so);
        added = true;
      });
      return added;
    },
    /** The calls as tagged text (Qwen's and Hermes's `<tool_call>`, which the agent reads in every format), or '' where none came. */
    text(): string {
      return [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .filter(([, call]) => call.name !== '')
        .map(([, call]) => `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${argumentsText(call.args)}}\n</tool_call>`)
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
