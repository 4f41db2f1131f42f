import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import {
  hermesFormat,
  lfm2Format,
  runLocalAgent,
  type AgentEvent,
  type LanguageModel,
  type ModelRequest,
  type ParsedCall,
  type PromptFormat,
} from '@webmcp-agents/local-agent';
import { contextFull, EngineError, replyCutOff } from '../../lib/engines/engine';

const tools: ToolDescriptor[] = [
  {
    name: 'add_to_cart',
    description: 'Add a product to the cart.',
    inputSchema: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'] },
  },
];

/**
 * A model whose first reply writes `parts`, a chunk each, then reaches the token cap as WebLLM
 * does (unless `cutOff` is false); its next reply answers. It stops when its signal aborts, as
 * every engine does; `written` counts the parts it wrote, `requests` keeps what it was sent.
 */
function loopingModel(parts: readonly string[], cutOff: boolean | Error = true) {
  let written = 0;
  let replies = 0;
  const requests: ModelRequest[] = [];
  const model: LanguageModel = {
    async *stream(request) {
      replies += 1;
      requests.push(request);
      if (replies > 1) {
        yield { type: 'text-delta', text: 'A mug is in your cart.' };
        return;
      }
      for (const part of parts) {
        if (request.signal.aborted) return;
        written += 1;
        yield { type: 'text-delta', text: part };
      }
      if (cutOff) throw cutOff === true ? replyCutOff('1,024 tokens') : cutOff;
    },
  };
  return { model, written: () => written, requests };
}

/** Runs a request with `model`: how it ended, the calls that ran and the events. */
async function runLooping(model: LanguageModel, format: PromptFormat = hermesFormat) {
  const ran: ParsedCall[] = [];
  const events: AgentEvent[] = [];
  const result = await runLocalAgent({
    request: 'add a mug',
    model,
    format,
    getTools: () => tools,
    onEvent: (event) => events.push(event),
    executeTool: async (call): Promise<ToolOutput> => {
      ran.push(call);
      // Each call answers anew, as the cart fills: none is a loop by its answers (see countCall).
      return { text: `${ran.length} in the cart` };
    },
  });
  return { result, ran, events };
}

describe('a model that writes the same call over and over', () => {
  const copies: Record<string, { format: PromptFormat; copy: string }> = {
    hermes: { format: hermesFormat, copy: '<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug"}}</tool_call>\n' },
    lfm2: { format: lfm2Format, copy: '<|tool_call_start|>[add_to_cart(slug="mug")]<|tool_call_end|>' },
    // A small model's slip that the parser reads past: the stray bracket is no call of its own.
    'hermes, a brace too many': { format: hermesFormat, copy: '<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug"}}}</tool_call>\n' },
    'lfm2, a parenthesis too many': { format: lfm2Format, copy: '<|tool_call_start|>add_to_cart(slug="mug"))<|tool_call_end|>' },
  };

  for (const [name, { format, copy }] of Object.entries(copies)) {
    it(`is stopped once it plainly loops, and its call runs once instead of the reply failing at the token cap (${name})`, async () => {
      const { model, written } = loopingModel(Array<string>(40).fill(copy));
      const { result, ran, events } = await runLooping(model, format);
      expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
      expect(ran).toEqual([{ name: 'add_to_cart', arguments: { slug: 'mug' } }]);
      // Stopped at the fourth copy, not at the cap; the model reads its reply up to the third.
      expect(written()).toBe(4);
      const cards = events.flatMap((event) => (event.type === 'tool-call' ? [event.callId] : []));
      expect(cards).toEqual(['1.1', '1.2', '1.3']);
    });
  }

  it('is not stopped for a call written twice or three times, nor for the same call after another one', async () => {
    const add = (slug: string) => `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${slug}"}}</tool_call>`;
    const reply = `${add('mug')}${add('mug')}${add('cup')}${add('mug')}${add('mug')}${add('mug')}${add('cap')}`;
    const { result, ran } = await runLooping(loopingModel([reply], false).model);
    expect(result).toMatchObject({ finishReason: 'answer' });
    // Each call written again straight after itself runs once (see runCalls); none is lost.
    expect(ran.map((call) => call.arguments.slug)).toEqual(['mug', 'cup', 'mug', 'cap']);
  });

  it('has its call run once where the token cap cuts the reply inside a fourth copy (a long call)', async () => {
    const copy = `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${'mug'.repeat(200)}"}}</tool_call>`;
    const { result, ran } = await runLooping(loopingModel([copy, copy, copy, copy.slice(0, 30)]).model);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran.map((call) => call.name)).toEqual(['add_to_cart']);
  });

  it('still fails as cut off where the cap came before a third copy closed', async () => {
    const { result } = await runLooping(loopingModel([copies.hermes!.copy, copies.hermes!.copy]).model);
    expect(result).toMatchObject({ finishReason: 'error', error: { code: 'reply-cut-off' } });
  });
});

describe('a model that loops in other ways', () => {
  const add = (slug: string) => `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${slug}"}}</tool_call>\n`;

  it('is stopped once it plainly calls a tool the page does not offer over and over, and the run goes on', async () => {
    const { model, written } = loopingModel(Array<string>(40).fill('<tool_call>{"name": "checkout", "arguments": {}}</tool_call>\n'));
    const { result, ran } = await runLooping(model);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran).toEqual([]);
    expect(written()).toBe(4);
  });

  it('has every call run where it writes two calls by turns four times (4 mugs and 4 cups, a square: forward, left, …), as tags or as one list', async () => {
    const lfm2 = `<|tool_call_start|>[${Array<string>(4).fill('add_to_cart(slug="mug"), add_to_cart(slug="cup")').join(', ')}]<|tool_call_end|>`;
    for (const [reply, format] of [[(add('mug') + add('cup')).repeat(4), hermesFormat], [lfm2, lfm2Format]] as const) {
      const { result, ran } = await runLooping(loopingModel([...reply], false).model, format);
      expect(result).toMatchObject({ finishReason: 'answer' });
      expect(ran.map((call) => call.arguments.slug)).toEqual(Array<string[]>(4).fill(['mug', 'cup']).flat());
    }
  });

  it('is kept to the first pair where the token cap cuts it off while it writes two calls by turns, and each runs once', async () => {
    const { model } = loopingModel(Array.from({ length: 40 }, (_, index) => add(index % 2 ? 'cup' : 'mug')));
    const { result, ran, events } = await runLooping(model);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran.map((call) => call.arguments.slug)).toEqual(['mug', 'cup']);
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(2);
  });

  it('is kept to the first pair where the reply runs into the end of the model\'s context while it writes two calls by turns', async () => {
    const { model } = loopingModel(Array.from({ length: 40 }, (_, index) => add(index % 2 ? 'cup' : 'mug')), contextFull('Qwen3 1.7B', 4096));
    const { result, ran } = await runLooping(model);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran.map((call) => call.arguments.slug)).toEqual(['mug', 'cup']);
  });

  it('fails with the engine\'s error where the engine fails otherwise after two calls written by turns three times (a square\'s sides, then a server lost)', async () => {
    const model: LanguageModel = {
      async *stream() {
        yield { type: 'text-delta', text: (add('mug') + add('cup')).repeat(3) };
        throw new EngineError('unavailable', 'The server stopped the reply.', 'Check that the server is running.');
      },
    };
    const { result, ran } = await runLooping(model);
    // Not taken for a loop kept to its first pair: the person learns the reply was lost.
    expect(result).toMatchObject({ finishReason: 'error', error: { code: 'unavailable', message: 'The server stopped the reply.' } });
    expect(ran).toEqual([]);
  });

  it('has each call run once where the token cap cuts it off while it writes one tag holding two calls over and over', async () => {
    const tag = '<|tool_call_start|>[add_to_cart(slug="mug"), add_to_cart(slug="cup")]<|tool_call_end|>';
    const { result, ran } = await runLooping(loopingModel(Array<string>(20).fill(tag)).model, lfm2Format);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran.map((call) => call.arguments.slug)).toEqual(['mug', 'cup']);
  });

  it('has each call run once where the token cap cuts it off while it writes two calls by turns in a list fenced inside a tag', async () => {
    const [mug, cup] = ['mug', 'cup'].map((slug) => `{"name": "add_to_cart", "arguments": {"slug": "${slug}"}}`);
    const list = ['<tool_call>\n```json\n[', ...Array<string>(20).fill(`${mug}, ${cup}, `)];
    const { result, ran } = await runLooping(loopingModel(list).model);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran.map((call) => call.arguments.slug)).toEqual(['mug', 'cup']);
  });

  it('is stopped once its list of calls in one tag plainly runs on, its call runs once, and it reads back its list closed', async () => {
    const { model, written, requests } = loopingModel(['<|tool_call_start|>[', ...Array<string>(40).fill('add_to_cart(slug="mug"), ')]);
    const { result, ran } = await runLooping(model, lfm2Format);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran).toEqual([{ name: 'add_to_cart', arguments: { slug: 'mug' } }]);
    expect(written()).toBe(5);
    const mugs = Array<string>(3).fill('add_to_cart(slug="mug")').join(', ');
    expect(requests[1]!.messages).toContainEqual({ role: 'assistant', content: `<|tool_call_start|>[${mugs}]<|tool_call_end|>` });
  });

  it('is stopped once its list of calls in one tag plainly runs on, where a quote inside the calls\' strings does not end them', async () => {
    const { model, written } = loopingModel(['<|tool_call_start|>[', ...Array<string>(40).fill("add_to_cart(slug='kid's mug :)'), ")]);
    const { result, ran } = await runLooping(model, lfm2Format);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran).toEqual([{ name: 'add_to_cart', arguments: { slug: "kid's mug :)" } }]);
    expect(written()).toBe(5);
  });

  it('is stopped once it plainly opens the same call tag over and over without closing it, and its call runs once', async () => {
    const { model, written } = loopingModel(Array<string>(40).fill(add('mug').replace('</tool_call>', '')));
    const { result, ran } = await runLooping(model);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'A mug is in your cart.' });
    expect(ran).toEqual([{ name: 'add_to_cart', arguments: { slug: 'mug' } }]);
    // The fourth copy's call is read as it closes, without waiting for a fifth tag to open.
    expect(written()).toBe(4);
  });

  it('is not stopped for different calls in one list', async () => {
    const slugs = ['a', 'b', 'c', 'd', 'e'];
    const reply = `<|tool_call_start|>[${slugs.map((slug) => `add_to_cart(slug="${slug}")`).join(', ')}]<|tool_call_end|>`;
    const { result, ran } = await runLooping(loopingModel([...reply], false).model, lfm2Format);
    expect(result).toMatchObject({ finishReason: 'answer' });
    expect(ran.map((call) => call.arguments.slug)).toEqual(slugs);
  });
});
