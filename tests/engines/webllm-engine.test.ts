import { describe, expect, it, vi } from 'vitest';
import type { ModelChunk } from '@webmcp-agents/local-agent';
import { EngineError, type EngineLoadProgress } from '../../lib/engines/engine';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { defaultSettings, type Settings } from '../../lib/settings';
import { fakeGpu, type FakeGpuOptions } from './support/fake-gpu';
import { createFakeCacheStorage } from './support/fake-cache-storage';
import { createFakeWebLlm, emptyThinkingBlock, type FakeWebLlmOptions } from './support/fake-webllm';

function setup(options: Partial<FakeWebLlmOptions> = {}, settings: Partial<Settings> = {}, gpu: FakeGpuOptions = {}) {
  const fake = createFakeWebLlm({ replies: ['Hello there.'], ...options });
  const make = (overrides: Partial<Settings> = {}) =>
    createWebLlmEngine({ ...defaultSettings, ...settings, ...overrides }, {
      webllm: fake.module,
      gpu: fakeGpu(gpu),
      keepAwake: () => () => {},
    });
  const progress: EngineLoadProgress[] = [];
  return { fake, engine: make(), make, progress, record: (event: EngineLoadProgress) => progress.push(event) };
}

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const ask = (text: string, signal = new AbortController().signal) => ({
  messages: [
    { role: 'system' as const, content: 'You help.' },
    { role: 'user' as const, content: text },
  ],
  tools: [],
  signal,
});

async function loadError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('WebLLM engine: loading', () => {
  it('names only the rest of a download that stopped part way, as it starts again', async () => {
    const stored = createFakeCacheStorage();
    const base = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f16_1-MLC/resolve/main/';
    stored.put('webllm/model', `${base}tensor-cache.json`, 0, JSON.stringify({ records: [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }] }));
    stored.put('webllm/model', `${base}params_shard_0.bin`, 600 * 2 ** 20);
    vi.stubGlobal('caches', stored.storage);
    try {
      const { engine, progress, record } = setup();
      await engine.load(record);
      expect(progress[0]!.text).toBe('Downloading the rest of Qwen3 1.7B (q4f16), about 390 MB, once.');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('downloads the default model with a progress bar in megabytes and time left', async () => {
    const { engine, fake, progress, record } = setup();
    await engine.load(record);
    expect(engine.modelId).toBe('Qwen3-1.7B-q4f16_1-MLC');
    expect(engine.format.id).toBe('hermes');
    expect(fake.state.reloads).toEqual(['Qwen3-1.7B-q4f16_1-MLC']);
    const texts = progress.map((event) => event.text);
    expect(texts[0]).toBe('Downloading Qwen3 1.7B (q4f16), about 990 MB, once.');
    // The time left once two shards came after the first second.
    expect(texts).toContain('Downloading Qwen3 1.7B (q4f16): 200 of 400 MB.');
    expect(texts).toContain('Downloading Qwen3 1.7B (q4f16): 300 of 400 MB, a few seconds left.');
    expect(texts.at(-1)).toBe('Qwen3 1.7B (q4f16) is ready.');
    const halfway = progress.find((event) => event.text.includes('200 of 400'))!;
    expect(halfway).toMatchObject({ loadedBytes: 200 * 2 ** 20, totalBytes: 400 * 2 ** 20, fromCache: false });
    expect(progress.find((event) => event.text.includes('300 of 400'))).toMatchObject({ etaSeconds: 1 });
    const fractions = progress.map((event) => event.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(fractions.at(-1)).toBe(1);
  });

  it('says a cached model is on this computer and downloads nothing', async () => {
    const { engine, progress, record } = setup({ cached: ['Qwen3-1.7B-q4f16_1-MLC'] });
    await engine.load(record);
    expect(progress[0]).toMatchObject({ text: 'Loading Qwen3 1.7B (q4f16) from this computer.', fromCache: true });
    expect(progress.some((event) => event.text.startsWith('Downloading'))).toBe(false);
    expect(progress.every((event) => event.fromCache)).toBe(true);
  });

  it('costs nothing to load again, even from a new engine object for the next run', async () => {
    const { engine, make, fake, progress, record } = setup();
    await engine.load(() => {});
    await make().load(record);
    await engine.load(record);
    expect(fake.state.reloads).toHaveLength(1);
    expect(fake.state.engines).toHaveLength(1);
    expect(progress).toEqual([
      { fraction: 1, text: 'Qwen3 1.7B (q4f16) is ready.', fromCache: true },
      { fraction: 1, text: 'Qwen3 1.7B (q4f16) is ready.', fromCache: true },
    ]);
  });

  it('picks the q4f32 build on a GPU without shader-f16, and says why when one was asked for', async () => {
    const byDefault = setup({}, {}, { shaderF16: false });
    await byDefault.engine.load(() => {});
    expect(byDefault.engine.modelId).toBe('Qwen3-1.7B-q4f32_1-MLC');

    const asked = setup({}, { model: 'Qwen3-4B-q4f16_1-MLC' }, { shaderF16: false });
    await asked.engine.load(asked.record);
    expect(asked.engine.modelId).toBe('Qwen3-4B-q4f32_1-MLC');
    expect(asked.progress[0]!.text).toContain('Using the q4f32 build: this GPU has no 16-bit shaders (shader-f16).');
  });

  it('picks the smallest Qwen3 on a software adapter', async () => {
    const { engine } = setup({}, {}, { shaderF16: false, fallback: true });
    await engine.load(() => {});
    expect(engine.modelId).toBe('Qwen3-0.6B-q4f32_1-MLC');
  });

  it('says plainly when there is no WebGPU, and what to do', async () => {
    const { engine, fake } = setup({}, {}, { noAdapter: true });
    const error = await loadError(engine.load(() => {}));
    expect(error.code).toBe('no-webgpu');
    expect(error.message).toBe('WebGPU is turned off or found no usable GPU on this computer.');
    expect(error.hint).toMatch(/Chrome 124 or later.*pick another engine in the options/);
    expect(fake.state.reloads).toEqual([]);
  });

  it('rejects a model WebLLM does not have, with what to do', async () => {
    const { engine } = setup({}, { model: 'No-Such-Model-MLC' });
    const error = await loadError(engine.load(() => {}));
    expect(error).toMatchObject({ code: 'not-configured', message: 'WebLLM has no model called "No-Such-Model-MLC".' });
  });
});

describe('WebLLM engine: failures it recovers from', () => {
  it('offers a smaller model when the GPU runs out of memory, and the next load works', async () => {
    const { engine, make, fake } = setup({}, { model: 'Qwen3-4B-q4f16_1-MLC' });
    fake.state.loseDeviceOnReload = true;
    const error = await loadError(engine.load(() => {}));
    expect(error.code).toBe('out-of-memory');
    expect(error.message).toBe('The GPU ran out of memory while loading Qwen3 4B (q4f16).');
    expect(error.hint).toContain('a smaller model such as Qwen3 1.7B (q4f16)');
    expect(error.hint).toContain('no need to reload it');

    const smaller = make({ model: 'Qwen3-1.7B-q4f16_1-MLC' });
    await smaller.load(() => {});
    expect(fake.state.engines).toHaveLength(2);
    const chunks = await collect(smaller.model.stream(ask('Hi')));
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').length).toBeGreaterThan(0);
  });

  it('says how far a broken download came, and the retry resumes from there', async () => {
    const { engine, fake, progress, record } = setup();
    fake.state.failDownloadAfterShards = 2;
    const error = await loadError(engine.load(() => {}));
    expect(error.code).toBe('download-failed');
    expect(error.message).toBe('The download of Qwen3 1.7B (q4f16) stopped at 50% (200 of 400 MB).');
    expect(error.hint).toMatch(/picks up where it stopped/);
    expect(fake.state.cachedShards.get('Qwen3-1.7B-q4f16_1-MLC')?.size).toBe(2);

    await engine.load(record);
    const downloads = progress.filter((event) => event.text.startsWith('Downloading') && event.loadedBytes);
    expect(downloads[0]!.loadedBytes).toBe(100 * 2 ** 20);
    expect(fake.state.cachedShards.get('Qwen3-1.7B-q4f16_1-MLC')?.size).toBe(4);
  });

  it('removes a stored copy it cannot read, so the next load downloads it afresh', async () => {
    const { engine, fake, progress, record } = setup({ cached: ['Qwen3-1.7B-q4f16_1-MLC'] });
    fake.state.corruptCache = true;
    const error = await loadError(engine.load(() => {}));
    expect(error).toMatchObject({
      code: 'download-failed',
      message: 'The stored copy of Qwen3 1.7B (q4f16) could not be read.',
      hint: 'It has been removed: send your request again to download it afresh.',
    });
    expect(fake.state.cachedShards.has('Qwen3-1.7B-q4f16_1-MLC')).toBe(false);
    await engine.load(record);
    expect(progress[0]!.text).toMatch(/^Downloading Qwen3 1.7B/);
  });

  it('gives a resumed download the time it really has left, not counting what was stored before', async () => {
    const { engine, fake, progress, record } = setup({ shardsPerModel: 10, megabytesPerShard: 100, secondsPerShard: 5 });
    fake.state.failDownloadAfterShards = 5;
    await engine.load(() => {}).catch(() => {});
    await engine.load(record);
    const shown = (megabytes: number) => progress.find((event) => event.text.includes(`${megabytes.toLocaleString('en-US')} of 1,000 MB`))!;
    // Five shards were stored; each of the other five takes 5 s.
    expect(shown(500).etaSeconds).toBeUndefined();
    expect(shown(600).etaSeconds).toBeUndefined();
    expect(shown(700).text).toBe('Downloading Qwen3 1.7B (q4f16): 700 of 1,000 MB, about 15 s left.');
    for (const [megabytes, left] of [[700, 15], [800, 10], [900, 5]] as const) {
      expect(shown(megabytes).etaSeconds).toBeGreaterThanOrEqual(left * 0.9);
      expect(shown(megabytes).etaSeconds).toBeLessThanOrEqual(left * 1.1);
    }
  });

  it('does not say a stored copy was removed when removing it failed', async () => {
    const { engine, fake } = setup({ cached: ['Qwen3-1.7B-q4f16_1-MLC'] });
    fake.state.corruptCache = true;
    fake.state.unreadableFileList = true;
    const error = await loadError(engine.load(() => {}));
    expect(error.hint).not.toContain('removed');
    expect(error.hint).toContain('delete the model in the options');
  });

  it('stops a download when asked and can start again', async () => {
    const { engine, fake } = setup();
    const controller = new AbortController();
    fake.state.onShard = (shard) => {
      if (shard === 1) controller.abort();
    };
    const error = await engine.load(() => {}, controller.signal).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    fake.state.onShard = undefined;
    await engine.load(() => {});
    expect(engine.modelId).toBe('Qwen3-1.7B-q4f16_1-MLC');
    expect(fake.state.reloads).toHaveLength(2);
  });

  it('stops a first download when Stop comes while the tokenizer downloads, before the weights', async () => {
    const { engine, fake } = setup();
    const controller = new AbortController();
    fake.state.onTokenizer = () => controller.abort();
    const shards: number[] = [];
    fake.state.onShard = (shard) => void shards.push(shard);
    const error = await engine.load(() => {}, controller.signal).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(shards).toEqual([]);
    expect(fake.state.cachedShards.get('Qwen3-1.7B-q4f16_1-MLC')?.size ?? 0).toBe(0);
    fake.state.onTokenizer = undefined;
    await engine.load(() => {});
    expect(fake.state.reloads).toHaveLength(2);
    expect((await collect(engine.model.stream(ask('Hi')))).some((chunk) => chunk.type === 'text-delta')).toBe(true);
  });

  it('stops a load under way when the model is unloaded for another one, and loads the other at once', async () => {
    const { engine, make, fake } = setup();
    let firstShards = 0;
    let unloaded: Promise<void> | undefined;
    fake.state.onTokenizer = () => {
      fake.state.onTokenizer = undefined;
      // The person picks another model: the engine host retires this engine first.
      unloaded = engine.unload!();
    };
    fake.state.onShard = () => void (firstShards += fake.state.reloads.length === 1 ? 1 : 0);
    const error = await engine.load(() => {}).catch((caught: unknown) => caught);
    await unloaded;
    expect(error).toMatchObject({ code: 'unavailable', message: 'Qwen3 1.7B (q4f16) was unloaded before it finished loading.' });
    expect(firstShards).toBe(0);
    const small = make({ model: 'Qwen3-0.6B-q4f16_1-MLC' });
    await small.load(() => {});
    expect(fake.state.reloads).toEqual(['Qwen3-1.7B-q4f16_1-MLC', 'Qwen3-0.6B-q4f16_1-MLC']);
    expect(fake.state.engines.map((each) => each.loadedModelId)).toEqual([undefined, 'Qwen3-0.6B-q4f16_1-MLC']);
  });

  it('keeps a model read from this computer that finished loading in spite of Stop', async () => {
    const { engine, fake } = setup({ cached: ['Qwen3-1.7B-q4f16_1-MLC'] });
    const controller = new AbortController();
    const error = await engine
      .load((progress) => {
        if (progress.text.includes('into the GPU')) controller.abort();
      }, controller.signal)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    await engine.load(() => {});
    expect(fake.state.reloads).toHaveLength(1);
    expect((await collect(engine.model.stream(ask('Hi')))).some((chunk) => chunk.type === 'text-delta')).toBe(true);
  });

  it('loads again a model WebLLM dropped while idle, as it does when the GPU device is lost', async () => {
    const { engine, fake } = setup();
    await engine.load(() => {});
    // What WebLLM's own device.lost handler does.
    await fake.state.engines[0]!.unload();
    await engine.load(() => {});
    expect(fake.state.reloads).toHaveLength(2);
    expect((await collect(engine.model.stream(ask('Hi')))).some((chunk) => chunk.type === 'text-delta')).toBe(true);
  });

  it('reports a lost device while answering, and the next load starts afresh', async () => {
    const { engine, fake } = setup({ replies: ['A long answer that will not finish.'] });
    await engine.load(() => {});
    fake.state.loseDeviceAfterChunks = 2;
    const error = await collect(engine.model.stream(ask('Hi'))).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'device-lost', message: 'The GPU stopped working while Qwen3 1.7B (q4f16) was answering.' });
    await engine.load(() => {});
    expect(fake.state.reloads).toHaveLength(2);
  });
});

describe('WebLLM engine: replies', () => {
  it('streams text, then the usage with speed and prompt tokens', async () => {
    const { engine } = setup({ replies: ['Hello there, friend.'] });
    await engine.load(() => {});
    const chunks = await collect(engine.model.stream(ask('Hi')));
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.text] : [])).join('');
    // Qwen3 told not to think: WebLLM streams its empty reasoning block first, and the agent keeps it as written.
    expect(text).toBe(`${emptyThinkingBlock}Hello there, friend.`);
    expect(chunks.at(-1)).toEqual({
      type: 'usage',
      usage: {
        promptTokens: 12,
        completionTokens: 5,
        timeToFirstTokenMs: 30,
        prefillTokensPerSecond: 400,
        decodeTokensPerSecond: 40,
      },
    });
  });

  it('interrupts generation when the run is stopped', async () => {
    const controller = new AbortController();
    const { engine, fake } = setup({ replies: ['One two three four five six seven eight nine ten.'], chunkSize: 3 });
    await engine.load(() => {});
    const texts: string[] = [];
    for await (const chunk of engine.model.stream(ask('Count', controller.signal))) {
      if (chunk.type === 'text-delta') texts.push(chunk.text);
      if (texts.length === 2) controller.abort();
    }
    expect(fake.state.interrupts).toBe(1);
    expect(texts.join('')).toBe(`${emptyThinkingBlock}One tw`);
  });

  it('asks Qwen3 to answer without thinking, at the temperature in the settings', async () => {
    const { engine, fake } = setup({}, { temperature: 0.7 });
    await engine.load(() => {});
    await collect(engine.model.stream(ask('Hi')));
    expect(fake.state.requests[0]).toMatchObject({
      model: 'Qwen3-1.7B-q4f16_1-MLC',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.7,
      extra_body: { enable_thinking: false },
    });
    expect(fake.state.requests[0]).not.toHaveProperty('tools');
  });

  it('constrains tool calls to the shown tools\' schemas when the setting is on', async () => {
    const tools = [{ name: 'open_product', description: 'Open one.', parameters: { type: 'object', properties: { slug: { type: 'string' } } } }];
    const { engine, fake } = setup({}, { constrainedDecoding: true });
    await engine.load(() => {});
    await collect(engine.model.stream({ ...ask('Open the cap'), tools }));
    expect(fake.state.requests[0]!.response_format).toEqual({
      type: 'structural_tag',
      structural_tag: {
        type: 'structural_tag',
        format: {
          type: 'triggered_tags',
          triggers: ['<tool_call>'],
          tags: [
            {
              type: 'tag',
              begin: '<tool_call>\n{"name": "open_product", "arguments": ',
              content: { type: 'json_schema', json_schema: tools[0]!.parameters },
              end: '}\n</tool_call>',
            },
          ],
          at_least_one: false,
          stop_after_first: false,
        },
      },
    });

    const llama = setup({}, { constrainedDecoding: true, model: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' });
    await llama.engine.load(() => {});
    expect(llama.engine.format.id).toBe('llama3-json');
    await collect(llama.engine.model.stream({ ...ask('Open the cap'), tools }));
    expect(llama.fake.state.requests[0]).not.toHaveProperty('response_format');
    expect(llama.fake.state.requests[0]).not.toHaveProperty('extra_body');
  });

  it('answers without the constraint when the grammar cannot compile a tool\'s schema (WebLLM says so on the first read)', async () => {
    const tools = [{ name: 'find', description: 'Find.', parameters: { type: 'object', properties: { code: { type: 'string', pattern: '^(?=A)[A-Z]+$' } } } }];
    const { engine, fake } = setup({ replies: () => 'Plain answer.' }, { constrainedDecoding: true });
    await engine.load(() => {});
    const chunks = await collect(engine.model.stream({ ...ask('Find A'), tools }));
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.text).join('')).toBe(`${emptyThinkingBlock}Plain answer.`);
    expect(fake.state.requests.map((request) => request.response_format?.type)).toEqual(['structural_tag', undefined]);
  });
});

describe('WebLLM engine: a Stop while the constraint fails', () => {
  it('ends the reply where Stop came as WebLLM read the prompt, though the grammar then failed and the reply would start again without it', async () => {
    const tools = [{ name: 'find', description: 'Find.', parameters: { type: 'object', properties: { code: { type: 'string', pattern: '^(?=A)[A-Z]+$' } } } }];
    const controller = new AbortController();
    // Pressed as WebLLM takes the request, before its first word: WebLLM's interrupt is set, and the next request would clear it.
    const { engine, fake } = setup({ replies: (_request, index) => (index === 0 && controller.abort(), 'Plain answer.') }, { constrainedDecoding: true });
    await engine.load(() => {});
    const chunks: ModelChunk[] = [];
    await collectInto(engine.model.stream({ ...ask('Find A', controller.signal), tools }), chunks);
    expect(chunks.filter((chunk) => chunk.type === 'text-delta')).toEqual([]);
    expect(fake.state.requests).toHaveLength(1);
  });
});

describe('WebLLM engine: replies end as they should', () => {
  it('says a reply was cut off at the length limit instead of passing half of it as the answer', async () => {
    const { engine } = setup({ replies: ['word '.repeat(2_000)] });
    await engine.load(() => {});
    const chunks: ModelChunk[] = [];
    const error = await collectInto(engine.model.stream(ask('Write a lot')), chunks).then(() => undefined, (caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'EngineError', code: 'reply-cut-off' });
    expect((error as EngineError).message).toBe('The model\'s reply reached 1,024 tokens and was cut off.');
    expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(true);
    // A run that asks for longer replies (the person's "Longest reply") is sent and held to its own limit.
    const longer = setup({ replies: ['word '.repeat(3_000)] });
    await longer.engine.load(() => {});
    const cut = await collectInto(longer.engine.model.stream({ ...ask('Write a lot'), maxTokens: 2_048 }), []).then(() => undefined, (caught: unknown) => caught);
    expect((cut as EngineError).message).toBe('The model\'s reply reached 2,048 tokens and was cut off.');
    expect(longer.fake.state.requests.at(-1)).toMatchObject({ max_tokens: 2_048 });
  });

  it('offers a higher "Longest reply" in a cut-off\'s hint only where it would give the reply more room', async () => {
    const cutOffWith = async (replyTokens: number, maxTokens: number) => {
      const { engine } = setup({ replies: ['word '.repeat(maxTokens + 100)] }, { replyTokens });
      await engine.load(() => {});
      return collect(engine.model.stream({ ...ask('Write a lot'), maxTokens })).then(() => undefined, (caught: unknown) => caught as EngineError);
    };
    expect((await cutOffWith(1_024, 1_024))?.hint).toContain('raise "Longest reply"');
    // The model's 4,096-token context kept the reply to 2,048 tokens, whatever the setting.
    expect((await cutOffWith(4_096, 2_048))?.hint).toBe("Ask for something shorter, or for a long answer a part at a time: the model's 4,096-token context leaves a reply no more room.");
  });

  it('says the conversation no longer fits in the model\'s context, and what helps, instead of WebLLM\'s developer text', async () => {
    const { engine } = setup({ contextWindowSize: 4096 });
    await engine.load(() => {});
    const request = ask(`Summarise this: ${'a long tool output '.repeat(1_000)}`);
    const error = await collect(engine.model.stream(request)).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      code: 'context-full',
      message: 'This conversation no longer fits in the 4,096-token context of Qwen3 1.7B (q4f16).',
      hint: 'Start a new chat, lower "Characters of a tool\'s output the model reads" in the options, or pick a model with more context.',
    });
    expect(`${(error as EngineError).message} ${(error as EngineError).hint}`).not.toMatch(/context_window_size|sliding_window|Prompt tokens/);
  });

  it('says the context is full, not "ask for something shorter", when a reply stops at the end of the context window', async () => {
    const { engine } = setup({ replies: ['word '.repeat(2_000)], contextWindowSize: 4096 });
    await engine.load(() => {});
    const chunks: ModelChunk[] = [];
    // About 3,900 tokens of prompt leave room for about 200 of the 1,024 the reply may have.
    const error = await collectInto(engine.model.stream(ask(`Write a lot about this: ${'x'.repeat(15_500)}`)), chunks).then(() => undefined, (caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'EngineError',
      code: 'context-full',
      message: 'This conversation no longer fits in the 4,096-token context of Qwen3 1.7B (q4f16).',
    });
    expect((error as EngineError).hint).toContain('Start a new chat');
    // Its figures come before the error, for a loop that keeps what came before the cut.
    expect(chunks.filter((chunk) => chunk.type === 'usage')).toHaveLength(1);
  });

  it('Stop in one tab ends only that tab\'s reply, even while it waits for another tab\'s', async () => {
    const { engine, fake } = setup({ replies: (request) => (String(request.messages.at(-1)?.content) === 'first' ? 'A long first answer. '.repeat(20) : 'Second.'), chunkSize: 3 });
    await engine.load(() => {});
    const second = new AbortController();
    const first = engine.model.stream(ask('first'))[Symbol.asyncIterator]();
    const firstChunks: ModelChunk[] = [(await first.next()).value as ModelChunk];
    // The second tab's reply waits for the first; its person presses Stop meanwhile.
    const secondReply = collect(engine.model.stream(ask('second', second.signal)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    second.abort();
    const [, secondChunks] = await Promise.all([collectInto({ [Symbol.asyncIterator]: () => first }, firstChunks), secondReply]);
    const text = (chunks: ModelChunk[]) => chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.text).join('');
    expect(text(firstChunks)).toBe(emptyThinkingBlock + 'A long first answer. '.repeat(20));
    expect(text(secondChunks)).toBe('');
    expect(fake.state.interrupts).toBe(0);
    expect(fake.state.requests).toHaveLength(1);
  });
});

async function collectInto(stream: AsyncIterable<ModelChunk>, into: ModelChunk[]): Promise<void> {
  for await (const chunk of stream) into.push(chunk);
}
