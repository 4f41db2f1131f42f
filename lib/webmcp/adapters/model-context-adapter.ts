import { abortable, readProperty, readToolName, toResultString, toolNotFound, type ToolAdapter } from './tool-adapter';

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
 * since every frame has its own content script.
 */
export function createModelContextAdapter(context: ModelContextLike, ownWindow: Window): ToolAdapter {
  async function readTools(): Promise<unknown[]> {
    const tools = await context.getTools();
    if (!Array.isArray(tools)) return [];
    return tools.filter((tool) => {
      const owner = readProperty(tool, 'source') ?? readProperty(tool, 'window');
      return owner === undefined || owner === null || owner === ownWindow;
    });
  }
  return {
    list: readTools,
    watch(onChange) {
      context.addEventListener?.('toolchange', onChange);
      return () => context.removeEventListener?.('toolchange', onChange);
    },
    async execute(name, args, signal) {
      const tool = (await readTools()).find((candidate) => readToolName(candidate) === name);
      if (!tool) throw toolNotFound(name);
      try {
        return toResultString(await abortable(context.executeTool(tool, args, { signal }), signal));
      } catch (error) {
        // Before Chrome 155 (and in polyfill 5.1) the input was a JSON string.
        if (!/failed to parse input/i.test(String(readProperty(error, 'message')))) throw error;
        return toResultString(await abortable(context.executeTool(tool, JSON.stringify(args), { signal }), signal));
      }
    },
  };
}
