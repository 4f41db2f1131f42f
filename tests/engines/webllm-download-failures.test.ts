import * as webllm from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineError } from '../../lib/engines/engine';
import { recoverFailedLoad } from '../../lib/engines/webllm/recover-failed-load';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { loadFailure } from '../../lib/engines/webllm/webllm-errors';
import { webLlmRuntime } from '../../lib/engines/webllm/webllm-runtime';
import type { WebLlmModule } from '../../lib/engines/webllm/webllm-module';
import { defaultSettings } from '../../lib/settings';
import { installChromeCaches, type Network } from './support/chrome-caches';
import { fakeGpu } from './support/fake-gpu';

// WebLLM 0.2.86's own reload(): it fetches and parses the model's configuration through the Cache
// API before it needs WebGPU, so what a failed download leaves behind is WebLLM's real doing.
const realWebLlm = webllm as unknown as WebLlmModule;
const model = 'Qwen3-0.6B-q4f16_1-MLC';
const label = 'Qwen3 0.6B (q4f16)';

let installed: ReturnType<typeof installChromeCaches> | undefined;
afterEach(() => installed?.uninstall());

function setup(network: Network) {
  const current = { current: network };
  installed = installChromeCaches(current);
  const engine = createWebLlmEngine({ ...defaultSettings, engine: 'webllm', model }, { webllm: realWebLlm, gpu: fakeGpu(), keepAwake: () => () => {} });
  const loadError = () => engine.load(() => {}).then(() => expect.unreachable('the load should fail'), (error: unknown) => error as EngineError);
  return { current, engine, loadError, fetched: installed.fetched };
}

// A hotel's or a train's wifi, before the person signs in: every address leads to its sign-in page.
const signInPage: Network = () => new Response('<!DOCTYPE html><html><body>Sign in to the wifi</body></html>', { status: 200 });
const huggingFace: Network = (url) => (url.endsWith('.json') ? new Response('{"tokenizer_files":["tokenizer.json"],"records":[]}') : new Response(new Uint8Array([0, 97, 115, 109])));

describe('a WebLLM download that goes wrong', () => {
  it("says a network's sign-in page came instead of the model, and removes it, so the next request downloads the model", async () => {
    const { current, loadError, fetched } = setup(signInPage);
    expect(await loadError()).toMatchObject({
      code: 'download-failed',
      message: `The download of ${label} got a web page instead of the model's files: a network that asks you to sign in (in a hotel, on a train) sends one.`,
      hint: 'Sign in to the network if it asks, then send your request again: the page has been removed.',
    });
    // The person signs in; the page stored in the configuration's place is gone, so it is fetched.
    current.current = huggingFace;
    fetched.length = 0;
    const again = await loadError();
    expect(fetched.some((url) => url.endsWith('mlc-chat-config.json'))).toBe(true);
    expect(again.message).not.toMatch(/JSON|web page/);
  });

  it('reads an error answer from the server (503, 429, 404) as a failed download, in words, not as the browser\'s text', async () => {
    const { loadError } = setup(() => new Response('Service Unavailable', { status: 503 }));
    const error = await loadError();
    expect(error).toMatchObject({ code: 'download-failed', message: `The download of ${label} failed.` });
    expect(error.hint).toBe(
      'A server the model comes from (huggingface.co, or raw.githubusercontent.com for its GPU program) answered with an error. Send your request again in a few minutes: the download picks up where it stopped. ' +
        'On a network that asks you to sign in (in a hotel, on a train), sign in first; if it keeps failing, pick another model.',
    );
  });

  it('asks only to check the connection where a first download could not begin: nothing is stored to resume or delete', async () => {
    const { loadError } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await loadError()).toMatchObject({
      code: 'download-failed',
      message: `The download of ${label} failed.`,
      hint: 'Check your connection and send your request again. The model comes from huggingface.co, its GPU program from raw.githubusercontent.com: a network that blocks either site stops its download.',
    });
  });

  it("removes a sign-in page stored as the model's library (shared or not), and says what it was; the weights stay", async () => {
    setup(signInPage);
    const runtime = webLlmRuntime(realWebLlm);
    const record = runtime.appConfig.model_list.find((candidate) => candidate.model_id === model)!;
    const library = await installed!.caches.open('webllm/wasm');
    const weights = await installed!.caches.open('webllm/model');
    await library.put(record.model_lib, await signInPage(record.model_lib));
    await weights.put(`${record.model}/resolve/main/params_shard_0.bin`, new Response(new Uint8Array(8)));
    const recover = (message: string) =>
      recoverFailedLoad(runtime, { unload: async () => {} } as never, model, Object.assign(new Error(message), { name: 'CompileError' }));
    // A library this Chrome cannot compile is no damaged file: nothing goes.
    expect(await recover('WebAssembly.instantiate(): Compiling function #12 failed: invalid opcode 0xfd')).toBe(false);
    expect(await library.keys()).toHaveLength(1);
    // WebAssembly's own words for a file that begins "<!DO".
    const notWebAssembly = 'WebAssembly.instantiate(): expected magic word 00 61 73 6d, found 3c 21 44 4f @+0';
    expect(await recover(notWebAssembly)).toBe('library');
    expect(await library.keys()).toEqual([]);
    expect(await weights.keys()).toHaveLength(1);
    expect(loadFailure(new Error(notWebAssembly), { label, wasCached: true, clearedBrokenCache: 'library' }).message).toContain('got a web page');
    // One that is no web page either: only the library went, and the words say so.
    const garbled = loadFailure(new Error('WebAssembly.instantiate(): expected magic word 00 61 73 6d, found 01 02 03 04 @+0'), { label, wasCached: true, clearedBrokenCache: 'library' });
    expect([garbled.message, garbled.hint]).toEqual([
      `Part of the stored copy of ${label}, its GPU program, could not be read.`,
      'That part has been removed: send your request again to download it afresh (the model itself stays).',
    ]);
  });

  it("removes every file of a model whose stored files are damaged, its file list too, and keeps a library another stored model shares", async () => {
    setup(huggingFace);
    const runtime = webLlmRuntime(realWebLlm);
    const record = (id: string) => runtime.appConfig.model_list.find((candidate) => candidate.model_id === id)!;
    const [llama, hermes] = [record('Llama-3.2-3B-Instruct-q4f16_1-MLC'), record('Hermes-3-Llama-3.2-3B-q4f16_1-MLC')];
    expect(llama.model_lib).toBe(hermes.model_lib);
    const weights = await installed!.caches.open('webllm/model');
    const library = await installed!.caches.open('webllm/wasm');
    for (const stored of [llama, hermes]) {
      await weights.put(`${stored.model}/resolve/main/tensor-cache.json`, new Response('{"records":[{"dataPath":"params_shard_0.bin"}]}'));
      await weights.put(`${stored.model}/resolve/main/params_shard_0.bin`, new Response(new Uint8Array(8)));
    }
    await library.put(llama.model_lib, new Response(new Uint8Array([0, 97, 115, 109])));
    const damaged = Object.assign(new Error('The stored weights do not match their checksum.'), { name: 'IntegrityError' });
    expect(await recoverFailedLoad(runtime, { unload: async () => {} } as never, llama.model_id, damaged)).toBe('model');
    // Nothing of it is left to be listed as a stopped download; Hermes 3 keeps its files and the library.
    const left = (await weights.keys()).map((request) => request.url);
    expect(left.filter((url) => url.startsWith(`${llama.model}/`))).toEqual([]);
    expect(left.filter((url) => url.startsWith(`${hermes.model}/`))).toHaveLength(2);
    expect(await library.keys()).toHaveLength(1);
  });
});
