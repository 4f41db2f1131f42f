import { afterEach, describe, expect, it } from 'vitest';
import { runLocalAgent } from '@webmcp-agents/local-agent';
import { EngineError, type EngineLoadProgress } from '../../lib/engines/engine';
import { createEnvelopeReader, textToEnvelope } from '../../lib/engines/prompt-api/envelope-reader';
import { createPromptApiEngine, previewPromptApi } from '../../lib/engines/prompt-api/prompt-api-engine';
import type { LanguageModelApi } from '../../lib/engines/prompt-api/prompt-api-types';
import { defaultSettings } from '../../lib/settings';
import { createInMemoryShop, runShopRequest } from './support/in-memory-shop';
import { installFakeLanguageModel, type FakeLanguageModelLog, type FakeLanguageModelOptions } from './support/install-fake-language-model';

const world = globalThis as { LanguageModel?: LanguageModelApi; fakeLanguageModelLog?: FakeLanguageModelLog };

afterEach(() => {
  delete world.LanguageModel;
  delete world.fakeLanguageModelLog;
});

function setup(options: Partial<FakeLanguageModelOptions> = {}) {
  installFakeLanguageModel({ availability: 'available', replies: [], ...options });
  const engine = createPromptApiEngine(defaultSettings, { languageModel: world.LanguageModel! });
  return { engine, log: world.fakeLanguageModelLog! };
}

const envelopeReplies = [
  '{"type": "tool_call", "name": "search_products", "arguments": {"query": "mug"}}',
  '{"type": "tool_call", "name": "add_to_cart", "arguments": {"slug": "enamel-mug", "qty": 2}}',
  '{"type": "message", "text": "Done: two \\"Enamel camping mugs\\" are in your cart."}',
];

describe("Chrome's built-in model (Prompt API) engine", () => {
  it('reads a message as prose, even one that shows a call as an example: only the tool_call envelope calls', async () => {
    const example = 'To remove it yourself, send:\n```json\n{"name": "remove_from_cart", "arguments": {"slug": "enamel-mug"}}\n```';
    const { engine } = setup({ replies: [JSON.stringify({ type: 'message', text: example })] });
    await engine.load(() => {});
    const shop = createInMemoryShop();
    const executed: string[] = [];
    const result = await runLocalAgent({
      request: 'How do I remove the mug?',
      model: engine.model,
      format: engine.format,
      getTools: () => shop.tools,
      executeTool: (call) => (executed.push(call.name), shop.executeTool(call)),
    });
    expect(result).toMatchObject({ finishReason: 'answer', text: example });
    expect(executed).toEqual([]);
  });

  it('gives two tabs\' replies at once their own sessions: neither reuses nor ends the other\'s', async () => {
    const { engine, log } = setup({ replies: ['{"type": "message", "text": "Answer for A."}', '{"type": "message", "text": "Answer for B."}'], chunkSize: 2 });
    await engine.load(() => {});
    let firstStreaming: () => void = () => {};
    const streaming = new Promise<void>((resolve) => (firstStreaming = resolve));
    const ask = (system: string, text: string) =>
      (async () => {
        let reply = '';
        for await (const chunk of engine.model.stream({
          messages: [{ role: 'system', content: system }, { role: 'user', content: text }],
          tools: [],
          signal: new AbortController().signal,
        })) {
          if (chunk.type === 'text-delta') reply += chunk.text;
          firstStreaming();
        }
        return reply;
      })();
    const firstReply = ask('You help on shop A.', 'a?');
    // Tab B asks while tab A's reply is streaming.
    await streaming;
    const [first, second] = await Promise.all([firstReply, ask('You help on shop B.', 'b?')]);
    expect([first, second]).toEqual(['Answer for A.', 'Answer for B.']);
    expect(log.creates.map((create) => create.initialPrompts[0]?.content)).toEqual(['You help on shop A.', 'You help on shop B.']);
    expect(log.prompts.map((prompt) => prompt.sessionIndex)).toEqual([0, 1]);
  });

  it('runs the shop task, streaming prose and keeping one session for the run', async () => {
    const { engine, log } = setup({ replies: envelopeReplies });
    await engine.load(() => {});
    const { result, events, shop } = await runShopRequest(engine, 'Add two enamel mugs to my cart');
    expect(result.finishReason).toBe('answer');
    expect(result.text).toBe('Done: two "Enamel camping mugs" are in your cart.');
    expect(shop.cart).toEqual([{ slug: 'enamel-mug', qty: 2 }]);
    const prose = events.flatMap((event) => (event.type === 'prose-delta' ? [event.text] : [])).join('');
    expect(prose).toBe('Done: two "Enamel camping mugs" are in your cart.');

    expect(log.creates).toHaveLength(1);
    expect(log.creates[0]!.initialPrompts.map((message) => message.role)).toEqual(['system']);
    expect(log.creates[0]).toMatchObject({ temperature: 0.2, topK: 3 });
    expect(log.prompts.map((prompt) => prompt.sessionIndex)).toEqual([0, 0, 0]);
    expect(log.prompts[0]!.input).toBe('Add two enamel mugs to my cart');
    expect(log.prompts[1]!.input).toMatch(/^Result of search_products: /);

    const usages = events.flatMap((event) => (event.type === 'step-end' ? [event.usage] : []));
    expect(usages[0]).toMatchObject({ completionTokens: 20 });
    expect(usages[0]!.promptTokens).toBeGreaterThan(0);
    expect(usages[0]!.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it('leaves out a count the browser gets wrong (NaN, or one less than nothing), rather than show it', async () => {
    for (const measuresAs of [Number.NaN, -3]) {
      const { engine } = setup({ replies: [envelopeReplies[2]!], measuresAs });
      await engine.load(() => {});
      const { events } = await runShopRequest(engine, 'Add two enamel mugs to my cart');
      const usage = events.flatMap((event) => (event.type === 'step-end' ? [event.usage] : []))[0]!;
      expect(usage).not.toHaveProperty('completionTokens');
      expect(usage).not.toHaveProperty('decodeTokensPerSecond');
      expect(Object.values(usage).every((figure) => Number.isFinite(figure) && figure >= 0)).toBe(true);
      expect(usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('tells each piece of a call it holds until the call is whole as an empty piece: the reply goes on, no word of it yet', async () => {
    const { engine } = setup({ replies: [envelopeReplies[0]!], chunkSize: 4 });
    await engine.load(() => {});
    const pieces: string[] = [];
    for await (const chunk of engine.model.stream({ messages: [{ role: 'user', content: 'Find a mug' }], tools: [], signal: new AbortController().signal })) {
      if (chunk.type === 'text-delta') pieces.push(chunk.text);
    }
    // A piece for each four characters the model wrote, empty while the envelope holds the call; the call, whole, at its end.
    expect(pieces.filter((piece) => piece === '')).toHaveLength(Math.ceil(envelopeReplies[0]!.length / 4));
    expect(pieces.filter((piece) => piece !== '')).toEqual(['<tool_call>\n{"name":"search_products","arguments":{"query":"mug"}}\n</tool_call>']);
  });

  it('constrains every reply to the envelope, naming only the tools shown', async () => {
    const { engine, log } = setup({ replies: ['{"type": "message", "text": "Hi."}'] });
    await engine.load(() => {});
    const tools = [{ name: 'open_cart', description: 'Open the cart.', parameters: { type: 'object' } }];
    for await (const chunk of engine.model.stream({ messages: [{ role: 'user', content: 'Hi' }], tools, signal: new AbortController().signal })) void chunk;
    const constraint = log.prompts[0]!.responseConstraint as { anyOf: { properties: Record<string, unknown> }[] };
    expect(constraint.anyOf[0]!.properties.name).toEqual({ type: 'string', enum: ['open_cart'] });
    expect(constraint.anyOf[1]!.properties.type).toEqual({ const: 'message' });
  });

  it('starts a new session with the conversation so far when it does not continue the last one', async () => {
    const { engine, log } = setup({ replies: ['{"type": "message", "text": "One."}', '{"type": "message", "text": "Two."}'] });
    await engine.load(() => {});
    const signal = new AbortController().signal;
    const drain = async (messages: { role: 'system' | 'user' | 'assistant'; content: string }[]) => {
      for await (const chunk of engine.model.stream({ messages, tools: [], signal })) void chunk;
    };
    await drain([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'First?' }]);
    await drain([
      { role: 'system', content: 'Be brief, and kind.' },
      { role: 'user', content: 'First?' },
      { role: 'assistant', content: 'One.' },
      { role: 'user', content: 'Second?' },
    ]);
    expect(log.creates).toHaveLength(2);
    expect(log.creates[1]!.initialPrompts).toEqual([
      { role: 'system', content: 'Be brief, and kind.' },
      { role: 'user', content: 'First?' },
      { role: 'assistant', content: '{"type":"message","text":"One."}' },
    ]);
    expect(log.destroyed).toBe(1);
  });

  it('shows the download from its monitor, and says when the model is already here', async () => {
    const downloading = setup({ availability: 'downloadable' });
    const progress: EngineLoadProgress[] = [];
    await downloading.engine.load((event) => progress.push(event));
    expect(progress.map((event) => event.text)).toEqual([
      'Chrome is downloading its built-in model…',
      'Chrome is downloading its built-in model: 0%.',
      'Chrome is downloading its built-in model: 25%.',
      'Chrome is downloading its built-in model: 50%.',
      'Chrome is downloading its built-in model: 75%.',
      'Chrome is downloading its built-in model: 100%.',
      "Chrome's built-in model is ready.",
    ]);
    const second: EngineLoadProgress[] = [];
    await downloading.engine.load((event) => second.push(event));
    expect(second).toEqual([{ fraction: 1, text: "Chrome's built-in model is ready.", fromCache: true }]);
  });

  it('says what to do where the model cannot run or Chrome wants a click first', async () => {
    const unavailable = setup({ availability: 'unavailable' });
    const error = await unavailable.engine.load(() => {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'unavailable', message: "Chrome's built-in model cannot run on this computer." });

    const needsClick = setup({ availability: 'downloadable', needsUserActivation: true });
    const refused = await needsClick.engine.load(() => {}).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'not-configured', hint: expect.stringContaining('press Download') });
    expect((refused as EngineError).optionsHint).toBe('Press Download again, and allow it if Chrome asks.');

    delete world.LanguageModel;
    const absent = createPromptApiEngine(defaultSettings);
    const missing = await absent.load(() => {}).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ code: 'unavailable', message: "This browser has no built-in model (Chrome's Prompt API)." });
    // The side panel sends the person to the options; the options page, where they are, does not.
    for (const shown of [error, missing] as EngineError[]) {
      expect(shown.hint).toContain('in the options');
      expect(shown.optionsHint).toBeDefined();
      expect(shown.optionsHint).not.toContain('in the options');
    }
  });

  it('tells before any request, as its load would, where the model cannot run; one Chrome would download can, once the person says so', async () => {
    for (const availability of ['unavailable', 'downloadable', 'downloading', 'available'] as const) {
      setup({ availability });
      const preview = await previewPromptApi(world.LanguageModel!);
      const loaded = await createPromptApiEngine(defaultSettings, { languageModel: world.LanguageModel! }).load(() => {}).then(() => undefined, (error: EngineError) => error);
      if (availability === 'unavailable') expect(preview).toEqual({ error: loaded!.message, hint: loaded!.hint });
      // Chrome downloads it only at a click (a request from the background has none): Download in the options.
      else if (availability === 'downloadable') expect(preview).toEqual({ model: 'Gemini Nano (built into Chrome)', goAheadFirst: true });
      else expect(preview).toEqual({ model: 'Gemini Nano (built into Chrome)' });
    }
    delete world.LanguageModel;
    expect(await previewPromptApi(undefined)).toEqual({
      error: "This browser has no built-in model (Chrome's Prompt API).",
      hint: 'Use Chrome 138 or later on a computer that meets its requirements, or pick another engine in the options.',
    });
  });

  it('says the conversation no longer fits when Chrome refuses an input longer than the context, and the agent fits it to less', async () => {
    const { engine, log } = setup({
      contextWindow: 2_000,
      replies: ['{"type": "tool_call", "name": "search_products", "arguments": {"query": "mug"}}', '{"type": "message", "text": "People like the mug."}'],
    });
    await engine.load(() => {});
    const tooLong = { messages: [{ role: 'user' as const, content: 'word '.repeat(2_000) }], tools: [], signal: new AbortController().signal };
    const error = await (async () => {
      for await (const _chunk of engine.model.stream(tooLong)) void _chunk;
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'EngineError', code: 'context-full', message: "This conversation no longer fits in the context of Chrome's built-in model." });

    const shop = createInMemoryShop();
    const result = await runLocalAgent({
      request: 'What do people say about the mug?',
      model: engine.model,
      format: engine.format,
      contextTokens: 4_096,
      toolOutputLimit: 20_000,
      getTools: () => shop.tools,
      executeTool: async () => ({ text: 'The mug keeps coffee hot for an hour and the handle stays cool. '.repeat(300) }),
    });
    expect(result).toMatchObject({ finishReason: 'answer', text: 'People like the mug.' });
    // The results, cut to a 4,096-token context, were refused; cut to 3,072, they were read.
    const results = log.prompts.filter((prompt) => prompt.input.includes('coffee hot'));
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(results.at(-1)!.input.length).toBeLessThan(results[0]!.input.length);
    expect(Math.ceil(results.at(-1)!.input.length / 4)).toBeLessThanOrEqual(2_000);
  });
});

describe("Chrome's built-in model when a reply goes wrong", () => {
  /** The text a reply streamed, and the error it ended with. */
  async function replyOf(engine: ReturnType<typeof setup>['engine']) {
    let text = '';
    const error = await (async () => {
      for await (const chunk of engine.model.stream({ messages: [{ role: 'user', content: 'How much is the blue mug?' }], tools: [], signal: new AbortController().signal })) {
        if (chunk.type === 'text-delta') text += chunk.text;
      }
    })().then(() => undefined, (caught: unknown) => caught);
    return { text, error };
  }

  it('says a reply that stopped inside its message stopped, keeping what streamed, rather than pass half of it for the answer', async () => {
    const { engine } = setup({ replies: ['{"type": "message", "text": "The blue mug costs twelve eu'] });
    await engine.load(() => {});
    const { text, error } = await replyOf(engine);
    expect(text).toBe('The blue mug costs twelve eu');
    expect(error).toMatchObject({ code: 'unavailable', message: "Chrome's built-in model stopped in the middle of its reply." });
  });

  it('shows nothing of a call cut off before it was whole, and says the reply stopped', async () => {
    const { engine } = setup({ replies: ['{"type":"tool_call","name":"add_to_cart","arguments":{"product":"Blue m'] });
    await engine.load(() => {});
    const { text, error } = await replyOf(engine);
    expect(text).toBe('');
    expect(error).toMatchObject({ code: 'unavailable', message: "Chrome's built-in model stopped in the middle of its reply." });
  });

  it('gives up on a model that stops sending, before its first piece or after, rather than wait until Stop', async () => {
    const timeouts = { firstPieceMs: 40, firstPiecePerCharacterMs: 0, betweenPiecesMs: 40 };
    for (const [stallAt, how] of [[0, 'did not start answering'], [12, 'stopped answering']] as const) {
      installFakeLanguageModel({ availability: 'available', replies: ['{"type": "message", "text": "Twelve euros."}'], stallAt });
      const engine = createPromptApiEngine(defaultSettings, { languageModel: world.LanguageModel!, replyTimeouts: timeouts });
      await engine.load(() => {});
      const { error } = await replyOf(engine);
      expect(error).toMatchObject({ code: 'unavailable', message: `Chrome's built-in model ${how}: nothing came for 0 s.`, hint: 'Send your request again; if it keeps happening, restart Chrome.' });
    }
  });

  it('says a session Chrome would not start could not start; where Chrome says the model cannot run, to pick another engine, not to ask again', async () => {
    for (const [failure, message, hint] of [
      [{ name: 'UnknownError', message: 'Other generic failures occurred.' }, "Chrome's built-in model could not start: Other generic failures occurred.", 'Send your request again; if it keeps failing, start a new chat.'],
      [{ name: 'NotSupportedError', message: 'The device is not eligible for running on-device model.' }, 'Chrome says its built-in model cannot run here now: The device is not eligible for running on-device model.', 'To go on, pick another engine in the options.'],
    ] as const) {
      const { engine } = setup({ replies: [], createFailsWith: failure });
      await engine.load(() => {});
      expect((await replyOf(engine)).error).toMatchObject({ code: 'unavailable', message, hint });
    }
  });
});

describe('reading the JSON envelope as it streams', () => {
  it('streams the text of a message, decoding escapes split across pieces', () => {
    const reader = createEnvelopeReader();
    const pieces = ['{"type": "mes', 'sage", "text": "Line one\\', 'nTwo \\u00e9', 't\\u00e9 \\"ok\\""}'];
    const shown = pieces.map((piece) => reader.push(piece)).join('') + reader.finish().text;
    expect(shown).toBe('Line one\nTwo été "ok"');
  });

  it('turns a call into tags the prose filter hides, and back', () => {
    const reader = createEnvelopeReader();
    const raw = '{"type":"tool_call","name":"add_to_cart","arguments":{"qty":2}}';
    expect(reader.push(raw)).toBe('');
    const { text, cut } = reader.finish();
    expect(cut).toBe(false);
    expect(text).toBe('<tool_call>\n{"name":"add_to_cart","arguments":{"qty":2}}\n</tool_call>');
    expect(JSON.parse(textToEnvelope(text))).toEqual(JSON.parse(raw));
  });

  it('tells a reply that stopped inside its envelope from a whole one', () => {
    const message = createEnvelopeReader();
    expect(message.push('{"type": "message", "text": "Twelve eu')).toBe('Twelve eu');
    expect(message.finish()).toEqual({ text: '', cut: true });
    const call = createEnvelopeReader();
    call.push('{"type":"tool_call","name":"add_to_cart","arguments":{"qty":');
    expect(call.finish()).toEqual({ text: '', cut: true });
  });

  it('passes on a reply that is not an envelope as it was', () => {
    const reader = createEnvelopeReader();
    expect(reader.push('Sorry, I cannot help.')).toBe('');
    expect(reader.finish()).toEqual({ text: 'Sorry, I cannot help.', cut: false });
  });
});
