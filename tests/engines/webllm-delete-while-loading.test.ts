import { afterEach, describe, expect, it, vi } from 'vitest';
import * as webllm from '@mlc-ai/web-llm';
import { browser } from 'wxt/browser';
import { deleteModelsOnceStopped } from '../../lib/engines/webllm/delete-models-once-stopped';
import { answerModelDeletions, deleteModelsInBackground } from '../../lib/engines/webllm/model-deletion-messages';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { modelBaseUrl, stopDeletedModelLoads } from '../../lib/engines/webllm/stop-deleted-model-loads';
import { webLlmRuntime } from '../../lib/engines/webllm/webllm-runtime';
import { findCatalogModel } from '../../lib/engines/model-catalog';
import { weightsBaseUrl, type CacheLike, type CacheStorageLike } from '../../lib/engines/webllm/model-storage';
import { defaultSettings } from '../../lib/settings';
import { fakeGpu } from './support/fake-gpu';
import { createStandInWebLlm, type StandInWorld } from './support/webllm-reload-stand-in';

// The options page deletes a stored model while the service worker loads it, through WebLLM
// 0.2.86's own reload() and unload() (see the stand-in).
const big = 'Qwen3-1.7B-q4f16_1-MLC';
const small = 'Qwen3-0.6B-q4f16_1-MLC';

function setup(options: Parameters<typeof createStandInWebLlm>[0] = {}) {
  const { module, world } = createStandInWebLlm(options);
  const engine = createWebLlmEngine({ ...defaultSettings, engine: 'webllm', model: big }, { webllm: module, gpu: fakeGpu(), keepAwake: () => () => {} });
  return { world, module, engine, runtime: webLlmRuntime(module) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
const baseUrlOf = (modelId: string) => weightsBaseUrl(findCatalogModel(modelId)!);

/**
 * The stand-in's stored shards as the Cache API shows them to the deletion: each shard a file
 * under its model's base URL. Deleting a file waits for `slowly`, where given.
 */
function storedFiles(world: StandInWorld, slowly?: Promise<void>): CacheStorageLike {
  const files = () => [...world.stored].flatMap(([modelId, shards]) => [...shards].map((shard) => ({ modelId, shard, url: `${baseUrlOf(modelId)}params_shard_${shard}.bin` })));
  const weights: CacheLike = {
    keys: async () => files().map((file) => new Request(file.url)),
    match: async () => undefined,
    async delete(request) {
      await slowly;
      const file = files().find((candidate) => candidate.url === (typeof request === 'string' ? request : request.url));
      return file ? world.stored.get(file.modelId)!.delete(file.shard) : false;
    },
  };
  return { has: async (name) => name === 'webllm/model', open: async () => weights, delete: async () => (world.stored.clear(), true) };
}

afterEach(() => vi.restoreAllMocks());

describe('deleting a stored model while it loads', () => {
  it('stops its download, and the run that waited for it says the model was deleted and what to do', async () => {
    const { world, engine, runtime } = setup();
    let stopping: Promise<boolean> | undefined;
    const error = await engine
      .load((progress) => {
        if (!stopping && progress.text.startsWith('Downloading Qwen3 1.7B (q4f16): 120')) stopping = stopDeletedModelLoads(runtime, [baseUrlOf(big)]);
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'EngineError',
      code: 'unavailable',
      message: 'Qwen3 1.7B (q4f16) was deleted in the options before it finished loading.',
      hint: 'Send your request again to download it again.',
    });
    expect(await stopping).toBe(true);
    // When the answer comes, nothing writes the model's files any more: the deletion sticks.
    expect(runtime.pending).toBeUndefined();
    const downloaded = world.downloads.length;
    await settle();
    expect(world.downloads.length).toBe(downloaded);
    expect(downloaded).toBeLessThan(world.shardsPerModel);
    expect(world.gpuMegabytes()).toBe(0);
  });

  it('stops it when the deletion comes before WebLLM starts, while the stored files are read', async () => {
    const { world, module, engine, runtime } = setup();
    const hasModelInCache = module.hasModelInCache;
    let stopping: Promise<boolean> | undefined;
    module.hasModelInCache = (modelId, appConfig) => {
      // The options page's message comes in a task of its own.
      stopping = new Promise((resolve) => setTimeout(resolve, 0)).then(() => stopDeletedModelLoads(runtime, undefined));
      return new Promise((resolve) => setTimeout(resolve, 5)).then(() => hasModelInCache(modelId, appConfig));
    };
    const error = await engine.load(() => {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: 'Qwen3 1.7B (q4f16) was deleted in the options before it finished loading.' });
    expect(await stopping).toBe(true);
    await settle();
    expect(world.downloads).toEqual([]);
    expect(world.engines).toEqual([]);
  });

  it("deleting every model stops the load; deleting another model's files does not", async () => {
    const other = setup();
    let otherStop: Promise<boolean> | undefined;
    await other.engine.load((progress) => {
      if (!otherStop && progress.text.startsWith('Downloading Qwen3 1.7B (q4f16): 120')) otherStop = stopDeletedModelLoads(other.runtime, [baseUrlOf(small)]);
    });
    expect(await otherStop).toBe(false);
    expect(other.world.downloads).toHaveLength(other.world.shardsPerModel);

    const all = setup();
    let allStop: Promise<boolean> | undefined;
    const error = await all.engine
      .load((progress) => {
        if (!allStop && progress.text.startsWith('Downloading Qwen3 1.7B (q4f16): 120')) allStop = stopDeletedModelLoads(all.runtime, undefined);
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect(await allStop).toBe(true);
  });

  it('too late to cut, while the model goes into the GPU, lets the load finish and its run go on with the model', async () => {
    const { world, engine, runtime } = setup({ stored: [big] });
    let stopping: Promise<boolean> | undefined;
    world.onCopy = (_modelId, shard) => {
      if (shard === 3) stopping = stopDeletedModelLoads(runtime, [baseUrlOf(big)]);
    };
    await engine.load(() => {});
    expect(await stopping).toBe(true);
    expect(await world.engines[0]!.getMessage(big)).toBe('');
    expect(world.gpuMegabytes()).toBe(world.shardsPerModel * world.megabytesPerShard);
    world.onCopy = undefined;
    // The next request finds it loaded: nothing is read again.
    await engine.load(() => {});
    expect(world.instances).toHaveLength(1);
  });

  it('leaves a model that finished loading in the GPU, and the next request uses it', async () => {
    const { world, engine, runtime } = setup();
    await engine.load(() => {});
    expect(await stopDeletedModelLoads(runtime, undefined)).toBe(false);
    await engine.load(() => {});
    expect(world.instances).toHaveLength(1);
    expect(world.gpuMegabytes()).toBe(world.shardsPerModel * world.megabytesPerShard);
  });

  it('deletes the files in the service worker once the download stopped; a request sent meanwhile waits, then says the model was deleted', async () => {
    const { world, engine, runtime } = setup();
    let release = () => {};
    const slowly = new Promise<void>((resolve) => (release = resolve));
    let deleting: Promise<void> | undefined;
    const first = await engine
      .load((progress) => {
        if (!deleting && progress.text.startsWith('Downloading Qwen3 1.7B (q4f16): 120')) deleting = deleteModelsOnceStopped(runtime, [baseUrlOf(big)], storedFiles(world, slowly));
      })
      .catch((caught: unknown) => caught);
    expect(first).toMatchObject({ message: 'Qwen3 1.7B (q4f16) was deleted in the options before it finished loading.' });
    // The files are being deleted: a request sent now downloads nothing until they are gone, and then nothing either.
    const downloaded = world.downloads.length;
    expect(world.stored.get(big)?.size).toBeGreaterThan(0);
    const second = engine.load(() => {}).catch((caught: unknown) => caught);
    await settle();
    expect(world.downloads.length).toBe(downloaded);
    release();
    await deleting;
    expect(await second).toMatchObject({ code: 'unavailable', message: 'Qwen3 1.7B (q4f16) was deleted in the options before it finished loading.' });
    await settle();
    expect(world.downloads.length).toBe(downloaded);
    expect(world.stored.get(big)?.size).toBe(0);
  });

  it('waits for a copy into the GPU to end before it deletes, as WebLLM would download the files deleted under it again', async () => {
    const { world, engine, runtime } = setup({ stored: [big] });
    // However long the copy takes: any wait of 10 s or more the deletion might set runs out at once here.
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((run: () => void, ms?: number) => realSetTimeout(run, (ms ?? 0) >= 10_000 ? 0 : ms)) as typeof setTimeout);
    let release = () => {};
    const copying = new Promise<void>((resolve) => (release = resolve));
    let deleting: Promise<void> | undefined;
    let deleted = false;
    world.onCopy = async (_modelId, shard) => {
      if (shard !== 2) return;
      deleting = deleteModelsOnceStopped(runtime, [baseUrlOf(big)], storedFiles(world)).then(() => void (deleted = true));
      // The copy of a large model on a slow GPU: longer than any wait the deletion could give it.
      await copying;
    };
    const loading = engine.load(() => {});
    while (!deleting) await settle();
    await settle();
    expect({ deleted, stored: world.stored.get(big)?.size }).toEqual({ deleted: false, stored: world.shardsPerModel });
    release();
    await deleting;
    // The run goes on with the model in the GPU; nothing of it is left on the disk, nor fetched again.
    await loading;
    expect(engine.modelId).toBe(big);
    expect(world.stored.get(big)?.size).toBe(0);
    expect(world.downloads).toEqual([]);
  });

  it('has a request for another model wait while the files are deleted, then load it', async () => {
    const { world, module, runtime } = setup({ stored: [big] });
    const other = createWebLlmEngine({ ...defaultSettings, engine: 'webllm', model: small }, { webllm: module, gpu: fakeGpu(), keepAwake: () => () => {} });
    let release = () => {};
    const deleting = deleteModelsOnceStopped(runtime, [baseUrlOf(big)], storedFiles(world, new Promise<void>((resolve) => (release = resolve))));
    const loading = other.load(() => {});
    await settle();
    expect(world.downloads).toEqual([]);
    release();
    await deleting;
    await loading;
    expect(world.downloads).toHaveLength(world.shardsPerModel);
    expect(world.downloads.every((shard) => shard.startsWith(`${small}#`))).toBe(true);
    expect(world.stored.get(big)?.size).toBe(0);
  });

  it("answers the options page's request to delete, from the extension's own pages only, with the browser's error where it fails", async () => {
    const { world, runtime } = setup({ stored: [big, small] });
    type Listener = (message: unknown, sender: unknown, sendResponse: (answer: unknown) => void) => unknown;
    let listener: Listener = () => undefined;
    vi.spyOn(browser.runtime.onMessage, 'addListener').mockImplementation((added) => void (listener = added as unknown as Listener));
    let failing = false;
    const files = storedFiles(world);
    const broken = async () => Promise.reject(Object.assign(new Error('Unexpected internal error.'), { name: 'UnknownError' }));
    answerModelDeletions(
      () => runtime,
      () => (failing ? { ...files, open: broken, delete: broken } : files),
    );
    // Chrome hands the listener the sender; the answer comes through sendResponse.
    let sender: unknown = { id: browser.runtime.id, url: browser.runtime.getURL('/options.html') };
    vi.spyOn(browser.runtime, 'sendMessage').mockImplementation(
      (message: unknown) => new Promise((resolve) => (listener(message, sender, resolve) === true ? undefined : resolve(undefined))) as never,
    );
    await deleteModelsInBackground([baseUrlOf(big)], files);
    expect(world.stored.get(big)?.size).toBe(0);
    expect(world.stored.get(small)?.size).toBe(world.shardsPerModel);

    failing = true;
    await expect(deleteModelsInBackground(undefined, files)).rejects.toMatchObject({ name: 'UnknownError', message: 'Unexpected internal error.' });
    failing = false;
    sender = { id: browser.runtime.id, url: 'https://shop.example/' };
    await expect(deleteModelsInBackground(undefined, files)).rejects.toMatchObject({ name: 'SecurityError' });
    expect(world.stored.get(small)?.size).toBe(world.shardsPerModel);
  });

  it("finds a model's stored files where WebLLM puts them, as the options page lists them", () => {
    const config = webllm.prebuiltAppConfig;
    expect(modelBaseUrl(config, big)).toBe(baseUrlOf(big));
    expect(modelBaseUrl({ model_list: [{ model: 'https://example.test/models/m/resolve/v2/', model_id: 'm', model_lib: '' }] }, 'm')).toBe(
      'https://example.test/models/m/resolve/v2/',
    );
    expect(modelBaseUrl(config, 'no-such-model')).toBeUndefined();
  });
});
