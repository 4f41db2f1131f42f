import { describe, expect, it, vi } from 'vitest';
import { runLocalAgent, type AgentEvent } from '@webmcp-agents/local-agent';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { defaultSettings } from '../../lib/settings';
import { fakeGpu } from './support/fake-gpu';
import { createFakeWebLlm, emptyThinkingBlock } from './support/fake-webllm';
import { createInMemoryShop, runShopRequest, shopReplies } from './support/in-memory-shop';

function result({ finishReason, error }: { finishReason: string; error?: { code?: string; message: string } }) {
  return { finishReason, code: error?.code, message: error?.message };
}

describe('the shop task through the real WebLLM engine code, with a fake WebLLM underneath', () => {
  async function runShopTask(constrainedDecoding = false) {
    const fake = createFakeWebLlm({ replies: shopReplies, chunkSize: 7 });
    const engine = createWebLlmEngine({ ...defaultSettings, constrainedDecoding }, {
      webllm: fake.module,
      gpu: fakeGpu(),
      keepAwake: () => () => {},
    });
    await engine.load(() => {});
    return { fake, ...(await runShopRequest(engine, 'Add two enamel mugs to my cart')) };
  }

  it('searches, opens the product, adds it to the cart and answers', async () => {
    const { shop, result, events } = await runShopTask();
    expect(result.finishReason).toBe('answer');
    expect(result.text).toBe('I added two Enamel camping mugs (12 each) to your cart.');
    expect(result.steps).toBe(4);
    expect(shop.cart).toEqual([{ slug: 'enamel-mug', qty: 2 }]);
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.name] : []));
    expect(calls).toEqual(['search_products', 'open_product', 'add_to_cart']);
    const prose = events.flatMap((event) => (event.type === 'prose-delta' ? [event.text] : [])).join('');
    expect(prose).not.toContain('<tool_call>');
    expect(prose).toContain('I will look for the mug.');
  });

  it('sends results back in user messages and keeps the system prompt byte-stable', async () => {
    const { fake } = await runShopTask();
    const requests = fake.state.requests;
    expect(requests).toHaveLength(4);
    const systemPrompts = new Set(requests.map((request) => request.messages[0]!.content));
    expect(systemPrompts.size).toBe(1);
    expect(requests[0]!.messages[0]!.content).toContain('<tools>');
    expect(requests.flatMap((request) => request.messages.map((message) => message.role))).not.toContain('tool');
    const secondLast = requests[1]!.messages.at(-1)!;
    expect(secondLast.role).toBe('user');
    expect(secondLast.content).toMatch(/^<tool_response>\n[\s\S]*enamel-mug[\s\S]*<\/tool_response>$/);
  });

  it('records speed and prompt tokens per step, showing the reused prefix', async () => {
    const { events } = await runShopTask();
    const usages = events.flatMap((event) => (event.type === 'step-end' ? [event.usage] : []));
    expect(usages).toHaveLength(4);
    for (const usage of usages) {
      expect(usage.decodeTokensPerSecond).toBe(40);
      expect(usage.prefillTokensPerSecond).toBe(400);
      expect(usage.timeToFirstTokenMs).toBeGreaterThan(0);
      expect(usage.completionTokens).toBeGreaterThan(0);
    }
    // The first step prefills the whole prompt; later steps only the new tool results.
    const [first, ...later] = usages.map((usage) => usage.promptTokens!);
    for (const tokens of later) expect(tokens).toBeLessThan(first! / 2);
  });

  it('constrains each call to the shown tools when constrained decoding is on', async () => {
    const { fake, shop } = await runShopTask(true);
    expect(shop.cart).toEqual([{ slug: 'enamel-mug', qty: 2 }]);
    const format = fake.state.requests[0]!.response_format as { structural_tag: { format: { tags: { begin: string }[] } } };
    const begins = format.structural_tag.format.tags.map((tag) => tag.begin);
    expect(begins).toHaveLength(3);
    expect(begins).toContain('<tool_call>\n{"name": "add_to_cart", "arguments": ');
  });

  it('fits a prompt again to less when the model reads it as longer than the agent counted, and answers', async () => {
    // A tokenizer that knows Korean poorly, as English-centric ones do: two tokens a syllable,
    // twice what the agent's estimate counts for one.
    const hangul = /[\uac00-\ud7a3]/g;
    const tokenCount = (text: string) => 2 * (text.match(hangul)?.length ?? 0) + Math.ceil(text.replace(hangul, '').length / 4);
    const reviews = '배송이 빠르고 포장도 꼼꼼해서 좋았어요. 커피가 오래 따뜻하게 유지됩니다. '.repeat(120);
    const fake = createFakeWebLlm({
      replies: (request) =>
        request.messages.length > 2
          ? 'Buyers say it ships fast and keeps coffee warm.'
          : '<tool_call>\n{"name": "search_products", "arguments": {"query": "mug reviews"}}\n</tool_call>',
      contextWindowSize: 4096,
      tokenCount,
    });
    const engine = createWebLlmEngine(defaultSettings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} });
    await engine.load(() => {});
    const shop = createInMemoryShop();
    const events: AgentEvent[] = [];
    const result = await runLocalAgent({
      request: 'What do buyers say about the mug?',
      model: engine.model,
      format: engine.format,
      contextTokens: engine.contextTokens,
      getTools: () => shop.tools,
      executeTool: async () => ({ text: reviews }),
      onEvent: (event) => events.push(event),
    });
    expect(result).toMatchObject({ finishReason: 'answer', text: 'Buyers say it ships fast and keeps coffee warm.' });
    // The second step was asked again, fitted to less, and the last prompt fits the model's context.
    const secondSteps = events.filter((event) => event.type === 'step-start' && event.step === 2);
    expect(secondSteps.length).toBeGreaterThan(1);
    const read = fake.state.requests.at(-1)!.messages.reduce((sum, message) => sum + tokenCount(String(message.content)) + 4, 0);
    expect(read).toBeLessThanOrEqual(4096);
    expect(String(fake.state.requests.at(-1)!.messages.at(-1)!.content)).toMatch(/배송이 빠르고[\s\S]*cut: \d+ more characters not shown/);
  });

  it('interrupts WebLLM where the model writes a tool result itself, and the next step\'s reply comes whole', async () => {
    const madeUp = `<tool_response>\n{"results": [{"slug": "enamel-mug"}]}\n</tool_response>\n${'Found it. Shall I add it to your cart? '.repeat(100)}`;
    const fake = createFakeWebLlm({ replies: [shopReplies[0] + madeUp, 'The enamel mug costs 12.'], chunkSize: 7 });
    const engine = createWebLlmEngine(defaultSettings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} });
    await engine.load(() => {});
    const { result, events } = await runShopRequest(engine, 'How much is the enamel mug?');
    expect(fake.state.interrupts).toBe(1);
    // WebLLM stopped a token or two past the cut, and says so: the made-up tail was never generated.
    const [first, second] = events.flatMap((event) => (event.type === 'step-end' ? [event] : []));
    expect(first!.raw.startsWith(`${emptyThinkingBlock}${shopReplies[0]}<tool_response>`)).toBe(true);
    expect(first!.usage.completionTokens).toBeLessThan((shopReplies[0]!.length + 30) / 4);
    expect(events.flatMap((event) => (event.type === 'tool-call' ? [event.name] : []))).toEqual(['search_products']);
    // The next reply is not cut short by the interrupt, nor queued behind the reply before.
    expect(second!.raw).toBe(`${emptyThinkingBlock}The enamel mug costs 12.`);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'The enamel mug costs 12.' });
  });

  it('unloads WebLLM when the GPU is lost as the model is stopped past its own turn, and the next reply says the GPU stopped', async () => {
    const madeUp = `<tool_response>\n{"results": [{"slug": "enamel-mug"}]}\n</tool_response>\n${'Found it. '.repeat(100)}`;
    const fake = createFakeWebLlm({ replies: [shopReplies[0] + madeUp, 'The enamel mug costs 12.<|im_end|>\n<|im_start|>user\nThanks!'], chunkSize: 7 });
    const engine = createWebLlmEngine(defaultSettings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} });
    const shop = createInMemoryShop();
    const calls: string[] = [];
    const run = async (request: string) => {
      let raw = '';
      return runLocalAgent({
        request,
        model: engine.model,
        format: engine.format,
        getTools: () => shop.tools,
        executeTool: (call) => shop.executeTool(call),
        onEvent: (event) => {
          if (event.type === 'tool-call') calls.push(event.name);
          if (event.type !== 'text-delta') return;
          raw += event.text;
          // The GPU is lost while WebLLM ends the reply it was told to stop.
          if (/<tool_response>|<\|im_start\|>user/.test(raw)) fake.state.loseDeviceAfterChunks ??= 0;
        },
      });
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await engine.load(() => {});
      // The cut reply's call was whole and runs; the next step is told why the model is gone.
      const first = await run('How much is the enamel mug?');
      expect(calls).toEqual(['search_products']);
      expect(result(first)).toEqual({ finishReason: 'error', code: 'device-lost', message: 'The GPU stopped working while Qwen3 1.7B (q4f16) was answering.' });
      // A reply that was the answer: the run ends well, and the next request loads the model afresh.
      await engine.load(() => {});
      const second = await run('How much is the enamel mug?');
      expect(second).toMatchObject({ finishReason: 'answer', text: 'The enamel mug costs 12.' });
      expect(fake.state.engines).toHaveLength(2);
      await engine.load(() => {});
      expect(fake.state.engines).toHaveLength(3);
      expect(fake.state.reloads).toHaveLength(3);
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });

  describe('a reply that writes the same call over and over', () => {
    const add = (slug: string) => `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${slug}", "qty": 1}}</tool_call>\n`;
    async function runLooping(reply: string, loseDeviceAfterChunks?: number) {
      const fake = createFakeWebLlm({ replies: [reply, 'A mug is in your cart.'], chunkSize: 5 });
      const engine = createWebLlmEngine(defaultSettings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} });
      await engine.load(() => {});
      if (loseDeviceAfterChunks !== undefined) fake.state.loseDeviceAfterChunks = loseDeviceAfterChunks;
      const shop = createInMemoryShop();
      const events: AgentEvent[] = [];
      const outcome = await runLocalAgent({ request: 'add a mug', model: engine.model, format: engine.format, getTools: () => shop.tools, executeTool: (call) => shop.executeTool(call), onEvent: (event) => events.push(event) });
      return { outcome, events };
    }

    it('keeps the figures of a reply the token cap cut inside a fourth copy, whose call runs once', async () => {
      const { outcome, events } = await runLooping(add('x'.repeat(1100)).repeat(6));
      expect(outcome.finishReason).toBe('answer');
      expect(events.filter((event) => event.type === 'tool-result')).toHaveLength(1);
      const first = events.find((event) => event.type === 'step-end');
      // WebLLM counts its empty reasoning block (4 tokens) toward the cap of 1,024, but not in what the model wrote.
      expect(first?.type === 'step-end' && first.usage.completionTokens).toBe(1020);
    });

    it('says the GPU stopped at the next step where it was lost after the third copy', async () => {
      const copy = add('enamel-mug');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const { outcome } = await runLooping(copy.repeat(8), Math.ceil((3 * copy.length) / 5) + 2);
        expect(result(outcome)).toEqual({ finishReason: 'error', code: 'device-lost', message: 'The GPU stopped working while Qwen3 1.7B (q4f16) was answering.' });
      } finally {
        warn.mockRestore();
      }
    });
  });
});

