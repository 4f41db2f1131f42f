import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../../lib/engines/engine';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { webLlmGlobalName } from '../../lib/engines/webllm/webllm-global-name';
import { importWebLlm, keepWebLlmInstalled, type WorkerScope } from '../../lib/engines/webllm/webllm-script';
import { defaultSettings } from '../../lib/settings';
import { fakeGpu } from './support/fake-gpu';
import { createFakeWebLlm } from './support/fake-webllm';

/** A classic service worker's scope whose `importScripts` runs `webllm.js` (it leaves the module), or fails as Chrome does. */
function workerScope(script: 'runs' | 'not installed' = 'runs') {
  const fake = createFakeWebLlm({ replies: ['Hello.'] });
  const installListeners: (() => void)[] = [];
  const scope = {
    importScripts: vi.fn((url: string) => {
      if (script === 'not installed') {
        throw new DOMException(`Failed to import '${url}'. importScripts() of new scripts after service worker installation is not allowed.`, 'NetworkError');
      }
      Object.assign(scope, { [webLlmGlobalName]: fake.module });
    }),
    addEventListener: (_type: 'install', listener: () => void) => installListeners.push(listener),
  } satisfies WorkerScope;
  return { scope, fake, install: () => installListeners.forEach((listener) => listener()) };
}

describe('WebLLM, read into the service worker when it is first needed', () => {
  it('is imported as the worker installs, so that Chrome keeps the script with it', () => {
    const { scope, install } = workerScope();
    keepWebLlmInstalled(scope);
    expect(scope.importScripts).not.toHaveBeenCalled();
    install();
    expect(scope.importScripts).toHaveBeenCalledWith('/webllm.js');
  });

  it('is imported once, then the module it left is used', () => {
    const { scope, fake } = workerScope();
    expect(importWebLlm(scope)).toBe(fake.module);
    expect(importWebLlm(scope)).toBe(fake.module);
    expect(scope.importScripts).toHaveBeenCalledTimes(1);
  });

  it('says what to do where the script cannot be read, keeping what the browser said', () => {
    const { scope } = workerScope('not installed');
    const error = (() => {
      try {
        importWebLlm(scope);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      code: 'unavailable',
      message: "WebLLM could not be read from the extension's files.",
      hint: 'Turn the extension off and on again at chrome://extensions, or pick another engine in the options.',
    });
    expect(String((error as Error).cause)).toContain('importScripts() of new scripts after service worker installation is not allowed');
  });

  it('does not fail the install where the script cannot be read: a load says so later, the console at once', () => {
    const { scope, install } = workerScope('not installed');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    keepWebLlmInstalled(scope);
    expect(install).not.toThrow();
    expect(String(logged.mock.calls[0]?.[0])).toContain("WebLLM could not be read from the extension's files.");
    logged.mockRestore();
  });
});

describe('the WebLLM engine of the service worker', () => {
  const global = globalThis as unknown as Record<string, unknown>;
  afterEach(() => {
    delete global['importScripts'];
    delete global[webLlmGlobalName];
  });

  it('reads WebLLM only when it loads a model: not when an engine is made, nor for its name', async () => {
    const fake = createFakeWebLlm({ replies: ['Hello.'] });
    const importScripts = vi.fn(() => void (global[webLlmGlobalName] = fake.module));
    global['importScripts'] = importScripts;
    const engine = createWebLlmEngine(defaultSettings, { gpu: fakeGpu(), keepAwake: () => () => {} });
    expect(engine.modelId).toBe('the default for this GPU');
    expect(importScripts).not.toHaveBeenCalled();
    await engine.load(() => {});
    expect(importScripts).toHaveBeenCalledTimes(1);
    expect(engine.modelId).toBe('Qwen3-1.7B-q4f16_1-MLC');
  });
});
