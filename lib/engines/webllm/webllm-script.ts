import { EngineError } from '../engine';
import { webLlmGlobalName } from './webllm-global-name';
import type { WebLlmModule } from './webllm-module';

/*
 * WebLLM is built apart from the background, into the classic script `webllm.js`
 * (`entrypoints/webllm.ts`), which leaves the module on the global scope under `webLlmGlobalName`.
 *
 * Chrome reads a service worker's whole script at each of its starts, and WebLLM was 6 MB of it
 * (most of that two WebAssembly tokenizers written into the script): a start took 0.31 s with it in
 * the background and takes 0.19 s without (`npm run bench worker-starts`). Most starts never use
 * it (a page reporting its tools, a panel opening with no model to load ahead, a run on another
 * engine). A service worker may not use `import()`, and `importScripts` only a script it imported
 * while it was being installed: so the install imports it once, which has Chrome keep it with the
 * worker, and the worker imports it again the first time it needs it.
 */

/** Where WXT puts the script built from `entrypoints/webllm.ts`. */
const scriptPath = '/webllm.js';

/** The slice of a classic service worker's global scope this uses. */
export interface WorkerScope {
  importScripts?(...urls: string[]): void;
  addEventListener(type: 'install', listener: () => void): void;
}

/**
 * The background, as its script first runs: imports WebLLM as Chrome installs the worker (the
 * extension installed, updated or reloaded), so that it may import it again at any later start.
 */
export function keepWebLlmInstalled(scope: WorkerScope = globalThis as unknown as WorkerScope): void {
  scope.addEventListener('install', () => {
    try {
      importWebLlm(scope);
    } catch (error) {
      // The person is told where a model is loaded (`importWebLlm` throws the same there); a
      // developer, here, with what the browser said.
      console.error(error, (error as Error).cause);
    }
  });
}

/**
 * WebLLM, read into this worker the first time it is asked for (a quarter of a second), then kept.
 * Throws an `EngineError` where the script cannot be read.
 */
export function importWebLlm(scope: WorkerScope = globalThis as unknown as WorkerScope): WebLlmModule {
  const global = scope as unknown as Record<string, WebLlmModule | undefined>;
  let failure: unknown;
  if (!global[webLlmGlobalName]) {
    try {
      scope.importScripts?.(scriptPath);
    } catch (error) {
      failure = error;
    }
  }
  const module = global[webLlmGlobalName];
  if (module) return module;
  // Turned off and on, the extension's worker is installed anew, which imports the script again.
  const error = new EngineError(
    'unavailable',
    "WebLLM could not be read from the extension's files.",
    'Turn the extension off and on again at chrome://extensions, or pick another engine in the options.',
  );
  // What the browser said, for a developer's console.
  throw Object.assign(error, { cause: failure });
}
