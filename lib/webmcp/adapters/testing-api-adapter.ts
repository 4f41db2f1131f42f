import { abortable, readProperty, readToolName, browserResultString, toolNotFound, type ToolAdapter } from './tool-adapter';

/** Chrome 146–151's `navigator.modelContextTesting`, which older polyfills still install. */
export interface TestingApiLike {
  listTools(): unknown;
  executeTool(name: string, inputJson: string, options?: { signal?: AbortSignal }): Promise<unknown>;
  registerToolsChangedCallback?(callback: () => void): void;
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
}

export function isTestingApiLike(value: unknown): value is TestingApiLike {
  return typeof readProperty(value, 'listTools') === 'function' && typeof readProperty(value, 'executeTool') === 'function';
}

/** Lists with `listTools()` (schemas as JSON text) and runs by name with a JSON string input. */
export function createTestingApiAdapter(testing: TestingApiLike): ToolAdapter {
  async function readTools(): Promise<unknown[]> {
    const tools: unknown = await testing.listTools();
    return Array.isArray(tools) ? tools : [];
  }
  return {
    list: readTools,
    watch(onChange) {
      let active = true;
      const listener = (): void => {
        if (active) onChange();
      };
      if (typeof testing.addEventListener === 'function') testing.addEventListener('toolchange', listener);
      else testing.registerToolsChangedCallback?.(listener);
      return () => {
        active = false;
        testing.removeEventListener?.('toolchange', listener);
      };
    },
    async execute(name, args, signal) {
      const known = (await readTools()).some((tool) => readToolName(tool) === name);
      if (!known) throw toolNotFound(name);
      return browserResultString(await abortable(testing.executeTool(name, JSON.stringify(args), { signal }), signal));
    },
  };
}
