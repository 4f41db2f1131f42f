import { abortable, readProperty, readToolName, browserResultString, noJson, toolNotFound, type ToolAdapter } from './tool-adapter';

/** The standard shape: the browser's `document.modelContext`, or a polyfill of it. */
export interface ModelContextLike {
  getTools(options?: object): Promise<unknown>;
  executeTool(tool: unknown, input: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
}

export function isModelContextLike(value: unknown): value is ModelContextLike {
  return typeof readProperty(value, 'getTools') === 'function' && typeof readProperty(value, 'executeTool') === 'function';
}

/**
 * Reads tools through `getTools()` and runs them with `executeTool()`. `getTools` also lists
 * same-origin tools of other frames; each frame keeps only its own (`source`, formerly `window`),
 * since every frame has its own content script. With `nullIsNavigation`, the browser's own
 * context, a `null` result means the document went away mid-call (Chrome's convention); a
 * polyfill's `null` is the tool's value, since a page that navigated would take the polyfill with it.
 */
export function createModelContextAdapter(context: ModelContextLike, ownWindow: Window, { nullIsNavigation = true } = {}): ToolAdapter {
  const resultString = nullIsNavigation ? browserResultString : polyfillResultString;
  async function readTools(): Promise<unknown[]> {
    const tools = await context.getTools();
    if (!Array.isArray(tools)) return [];
    return tools.filter((tool) => {
      const owner = readProperty(tool, 'source') ?? readProperty(tool, 'window');
      return owner === undefined || owner === null || owner === ownWindow;
    });
  }
  // Whether this browser or polyfill takes the input as a JSON string (learned on the first call).
  let inputAsString = false;
  return {
    list: readTools,
    watch(onChange) {
      context.addEventListener?.('toolchange', onChange);
      return () => context.removeEventListener?.('toolchange', onChange);
    },
    async execute(name, args, signal) {
      const tool = (await readTools()).find((candidate) => readToolName(candidate) === name);
      if (!tool) throw toolNotFound(name);
      const call = (input: unknown) => abortable(context.executeTool(tool, input, { signal }), signal);
      const run = nullIsNavigation ? call : (input: unknown) => call(input).catch((error: unknown) => Promise.reject(polyfillFailure(error, name)));
      if (inputAsString) return resultString(await run(JSON.stringify(args)));
      try {
        return resultString(await run(args));
      } catch (error) {
        // Before Chrome 155 (and in polyfill 5.1) the input was a JSON string. Only the input
        // parser's own refusal, which comes before the tool runs, means that: a tool's own error
        // comes wrapped ("Tool was executed but the invocation failed…") and must not run it twice.
        if (!/^failed to parse input/i.test(String(readProperty(error, 'message')))) throw error;
        inputAsString = true;
        return resultString(await run(JSON.stringify(args)));
      }
    },
  };
}

/**
 * A polyfill's result: its `null` is the tool's value. A value it could not turn into JSON (a
 * cycle, a BigInt, a symbol) it hands over as `String(value)`, which would read as a successful
 * "[object Object]" or "Symbol(s)": that fails the call, as the browser's own WebMCP does.
 */
function polyfillResultString(value: unknown): string {
  if (typeof value === 'string' && /^(?:\[object [^\]]{1,64}\]|Symbol\(.{0,64}\))$/s.test(value)) throw noJson(`the page's WebMCP script gave "${value}"`);
  return browserResultString(value) ?? 'null';
}

/**
 * A polyfill that drops the calls in flight of a tool the page removes or registers again (as a
 * single-page app does when the tool's own work draws the view anew) says only "Tool unregistered":
 * the tool ran, and may have done its work, though no result came back.
 */
function polyfillFailure(error: unknown, name: string): unknown {
  if (String(readProperty(error, 'message')).trim() !== 'Tool unregistered') return error;
  return new Error(`The page removed or replaced the tool "${name}" while it ran, so no result came back. It may have done its work: check the page before calling it again.`);
}
