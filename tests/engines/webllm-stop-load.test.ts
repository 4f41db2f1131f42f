import { describe, expect, it } from 'vitest';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { defaultSettings, type Settings } from '../../lib/settings';
import { fakeGpu } from './support/fake-gpu';
import { createStandInWebLlm, type StandInEngine } from './support/webllm-reload-stand-in';

// Stop during a WebLLM load, through WebLLM 0.2.86's own reload() and unload(): see the stand-in.
const big = 'Qwen3-1.7B-q4f16_1-MLC';
const small = 'Qwen3-0.6B-q4f16_1-MLC';

function setup(options: Parameters<typeof createStandInWebLlm>[0] = {}) {
  const { module, world } = createStandInWebLlm(options);
  const make = (settings: Partial<Settings> = {}) =>
    createWebLlmEngine({ ...defaultSettings, engine: 'webllm', model: big, ...settings }, { webllm: module, gpu: fakeGpu(), keepAwake: () => () => {} });
  return { world, make, engine: make() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** Nothing of a stopped load stays in the engine: no pipeline, no config, no abort controller. */
function expectNothingLeft(engine: StandInEngine) {
  expect(engine.loadedModelIdToPipeline.size).toBe(0);
  expect(engine.loadedModelIdToChatConfig.size).toBe(0);
  expect(engine.reloadController).toBeUndefined();
}

describe('WebLLM load: Stop (real reload and unload)', () => {
  it('Stop while the tokenizer downloads stops a first download before any weights, and the next load works', async () => {
    const { world, engine } = setup();
    const controller = new AbortController();
    world.onTokenizer = () => controller.abort();
    const error = await engine.load(() => {}, controller.signal).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    await settle();
    expect(world.downloads).toEqual([]);
    expect(world.gpuMegabytes()).toBe(0);
    expectNothingLeft(world.engines[0]!);

    world.onTokenizer = undefined;
    await engine.load(() => {});
    expect(world.downloads).toHaveLength(world.shardsPerModel);
    expect(await world.engines[0]!.getMessage(big)).toBe('');
    expect(world.gpuMegabytes()).toBe(world.shardsPerModel * world.megabytesPerShard);
  });

  it('Stop during the weights download ends every download loop, and nothing goes into the GPU', async () => {
    const { world, engine } = setup();
    const controller = new AbortController();
    const error = await engine
      .load((progress) => {
        if (progress.text.startsWith('Downloading Qwen3 1.7B (q4f16): 120')) controller.abort();
      }, controller.signal)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    const downloaded = world.downloads.length;
    await settle();
    expect(world.downloads.length).toBe(downloaded);
    expect(downloaded).toBeLessThan(world.shardsPerModel);
    expect(world.gpuMegabytes()).toBe(0);
    expectNothingLeft(world.engines[0]!);
    // The retry resumes: it downloads only what is missing.
    await engine.load(() => {});
    expect(world.downloads).toHaveLength(world.shardsPerModel);
  });

  it('after Stop, another model loads at once, and only it is in the GPU', async () => {
    const { world, engine, make } = setup();
    const controller = new AbortController();
    world.onTokenizer = (modelId) => {
      if (modelId === big) controller.abort();
    };
    const first = engine.load(() => {}, controller.signal).catch(() => {});
    await settle();
    // What the engine host does on a model change: retire the old engine, make a new one, load.
    await engine.unload!();
    await make({ model: small }).load(() => {});
    await first;
    await settle();
    expect(world.downloads.filter((shard) => shard.startsWith(big))).toEqual([]);
    expect(world.engines.map((each) => [...each.loadedModelIdToPipeline.keys()])).toEqual([[], [small]]);
    expect(world.gpuMegabytes()).toBe(world.shardsPerModel * world.megabytesPerShard);
  });

  it('the person picking another model while one loads stops that load; no model stays in an engine nobody holds', async () => {
    const { world, engine, make } = setup();
    let unloaded: Promise<void> | undefined;
    world.onTokenizer = (modelId) => {
      if (modelId === big) unloaded = engine.unload!();
    };
    const error = await engine.load(() => {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unavailable', hint: 'Send your request again to load it.' });
    await unloaded;
    await make({ model: small }).load(() => {});
    await settle();
    expect(world.downloads.filter((shard) => shard.startsWith(big))).toEqual([]);
    expect(world.instances.filter((each) => each.gpuMegabytes > 0).map((each) => each.modelId)).toEqual([small]);
  });

  it('unloading while a model goes into the GPU waits for it and frees it, instead of leaving it in a forgotten engine', async () => {
    const { world, engine } = setup({ stored: [big] });
    let unloaded: Promise<void> | undefined;
    world.onCopy = (_modelId, shard) => {
      if (shard === 3) unloaded = engine.unload!();
    };
    await engine.load(() => {}).catch(() => {});
    await unloaded;
    await settle();
    expect(world.gpuMegabytes()).toBe(0);
    expect(world.engines.every((each) => each.loadedModelIdToPipeline.size === 0)).toBe(true);
  });

  it('Stop while a stored model goes into the GPU keeps it, whole and usable', async () => {
    const { world, engine } = setup({ stored: [big] });
    const controller = new AbortController();
    world.onCopy = (_modelId, shard) => {
      if (shard === 3) controller.abort();
    };
    const error = await engine.load(() => {}, controller.signal).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    // Usable: WebLLM finds both the pipeline and its chat config.
    expect(await world.engines[0]!.getMessage(big)).toBe('');
    world.onCopy = undefined;
    await engine.load(() => {});
    expect(world.instances).toHaveLength(1);
    await engine.unload!();
    expect(world.gpuMegabytes()).toBe(0);
  });

  it('two tabs asking at the same moment, after WebLLM dropped the model while idle (GPU lost), load it once', async () => {
    const { world, make } = setup({ stored: [big] });
    await make().load(() => {});
    // WebLLM's own handler of a lost device unloads the model; the runtime still names it.
    await world.engines[0]!.unload();
    await Promise.all([make().load(() => {}), make().load(() => {})]);
    expect(world.engines[0]!.loadedModelIdToPipeline.size).toBe(1);
    expect(world.gpuMegabytes()).toBe(world.shardsPerModel * world.megabytesPerShard);
  });
});
