import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, lfm2Format, llama3JsonFormat, runLocalAgent, type AgentEvent, type PromptFormat } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const tools: ToolDescriptor[] = [
  { name: 'search_products', description: 'Search the shop.', inputSchema: { type: 'object', properties: { query: { type: 'string' }, inStock: { type: 'boolean' } } } },
  { name: 'open_cart', description: 'Show the cart.', inputSchema: { type: 'object', properties: {} } },
];

/** Runs one request over `replies`: what ran, what the model read after its first reply, the prose shown of that reply, and how the run ended. */
async function run(replies: string[], format: PromptFormat = hermesFormat) {
  const model = createReplayEngine(replies, { chunkSize: 7 });
  const events: AgentEvent[] = [];
  const ran: string[] = [];
  const result = await runLocalAgent({
    request: 'find a mug',
    model,
    format,
    getTools: () => tools,
    executeTool: async (call): Promise<ToolOutput> => (ran.push(`${call.name} ${JSON.stringify(call.arguments)}`), { text: 'FOUND enamel mug' }),
    onEvent: (event) => events.push(event),
  });
  let shown = '';
  let streamed = '';
  for (const event of events) {
    if (event.type === 'prose-delta' && event.step === 1) [shown, streamed] = [shown + event.text, streamed + event.text];
    if (event.type === 'prose-replace' && event.step === 1) shown = event.text;
  }
  const cards = events.flatMap((event) => (event.type === 'tool-error' && event.step === 1 ? [`${event.name}:${event.kind}`] : []));
  return { ran, read: model.requests[1]?.messages.at(-1)?.content, shown, streamed, cards, result, events };
}

describe('runLocalAgent: a call written as code, not as the format writes calls', () => {
  it('runs nothing for a bare Python call, and tells the model how its format writes that call', async () => {
    const { ran, read, shown, cards, result } = await run(['search_products(query="mug", inStock=True)', '<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>', 'An enamel mug.']);
    expect(read).toBe(
      '<tool_response>\nError: Couldn\'t read a tool call: search_products(query="mug", inStock=True) was written as code, so nothing ran. ' +
        'To call it, write {"name":"search_products","arguments":{"query":"mug","inStock":true}} between tool_call tags, as the system prompt shows.\n</tool_response>',
    );
    expect(shown).toBe('');
    expect(cards).toEqual(['search_products:parse']);
    expect(ran).toEqual(['search_products {"query":"mug"}']);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'An enamel mug.' });
  });

  it('keeps the prose before a ```tool_code block of calls, as Gemma writes them, and tells the model how to write each', async () => {
    const reply = 'I will look for mugs first.\n```tool_code\nsearch_products(query="mug")\nopen_cart()\n```';
    const { ran, read, shown, streamed } = await run([reply, 'Nothing found.'], llama3JsonFormat);
    expect(ran).toEqual([]);
    expect(shown.trimEnd()).toBe('I will look for mugs first.');
    // The block is held back as it streams, as a fenced call is: it never flashes up.
    expect(streamed).not.toContain('search_products');
    // Llama 3 writes one call a reply: it is shown the first.
    expect(read).toContain('was written as code, so nothing ran. To call search_products, respond with only {"name":"search_products","parameters":{"query":"mug"}}.');
  });

  it.each([hermesFormat, llama3JsonFormat, lfm2Format])('streams the code of an answer before its block closes, where it starts as no call (%#)', async (format) => {
    const reply = 'A script:\n```python\nimport json\nprint(json.dumps({"mug": 12}))\n```\nRun it.';
    const { events, shown, result } = await run([reply, 'never'], format);
    /** The index of the first event by which `part`'s text has all come, as raw text or as prose. */
    const cameBy = (type: 'text-delta' | 'prose-delta', part: string) => {
      let text = '';
      return events.findIndex((event) => event.type === type && (text += event.text).includes(part));
    };
    expect(cameBy('prose-delta', 'import json')).toBeGreaterThan(-1);
    expect(cameBy('prose-delta', 'import json')).toBeLessThan(cameBy('text-delta', '```\nRun'));
    expect(shown).toBe(reply);
    expect(result).toMatchObject({ finishReason: 'answer', text: reply });
  });

  it('shows LFM2 its call list with Python values, for calls written on a line of their own after prose', async () => {
    const { ran, read, shown } = await run(['Looking.\nsearch_products(query="mug", inStock=False), open_cart()', 'Nothing found.'], lfm2Format);
    expect(ran).toEqual([]);
    expect(shown).toBe('Looking.');
    expect(read).toContain('To call them, write [search_products(query="mug", inStock=False), open_cart()] between the tool call start and end tokens.');
  });

  it('reads a call written as code over several lines, after the prose', async () => {
    const { ran, read, shown } = await run(['Looking.\nsearch_products(\n  query="mug",\n)', 'Nothing found.']);
    expect(ran).toEqual([]);
    expect(shown.trimEnd()).toBe('Looking.');
    expect(read).toContain('To call it, write {"name":"search_products","arguments":{"query":"mug"}}');
  });

  it('reads calls written as code after a long answer, and many of them', async () => {
    const prose = 'A line of the answer.\n'.repeat(300).trim();
    const { read, shown } = await run([`${prose}\nopen_cart()`, 'Nothing found.']);
    expect(shown.trimEnd()).toBe(prose);
    expect(read).toContain('open_cart() was written as code, so nothing ran.');
    const calls = Array.from({ length: 20 }, (_, index) => `search_products(query="mug ${index}")`);
    const { read: readOfMany, ran } = await run([calls.join('\n'), 'Nothing found.']);
    expect(ran).toEqual([]);
    // Sixteen calls' telling would be too long to read: the model is pointed to its system prompt.
    expect(readOfMany).toContain('… was written as code, so nothing ran. Write each call as the system prompt shows.');
  });

  it('ends the run as a repeated mistake where the model writes the same code a third time', async () => {
    const { ran, result, events } = await run(['open_cart()', 'open_cart()', 'open_cart()', 'never']);
    expect(ran).toEqual([]);
    expect(result.finishReason).toBe('repeated-call');
    expect(events.find((event) => event.type === 'tool-error' && event.kind === 'repeated')).toMatchObject({
      message: 'The model wrote the same call to "open_cart" as code, not as a tool call, 3 times, so the run was stopped.',
    });
  });

  // An answer is not a call: only code that is all the reply's end, to tools of the page, is read so.
  for (const answer of [
    'You can search with search_products(query="mug") yourself.',
    'search_products(query="mug") finds mugs; open_cart() shows the cart.',
    'Try this:\n```js\nsearch_products("mug")\n```',
    'Try this:\n```python\nsearch_products(query="mug")\n```\nIt finds every mug.',
    'delete_account(confirm=True)',
  ]) {
    it(`keeps as the answer: ${JSON.stringify(answer)}`, async () => {
      const { ran, result, shown } = await run([answer, 'never']);
      expect(ran).toEqual([]);
      expect(result).toMatchObject({ finishReason: 'answer', steps: 1 });
      expect(shown).toBe(answer);
    });
  }
});
