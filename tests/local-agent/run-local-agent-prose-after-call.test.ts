import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, llama3JsonFormat, runLocalAgent, type AgentEvent, type PromptFormat, type RunLocalAgentOptions } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const search: ToolDescriptor = { name: 'search_products', description: 'Search the products.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } };
const add: ToolDescriptor = {
  name: 'add_to_cart',
  description: 'Add a product to the cart.',
  inputSchema: { type: 'object', properties: { slug: { type: 'string' }, qty: { type: 'integer' } }, required: ['slug'] },
};
// One tool a step, and the ranking puts the search first: the cart is offered but not shown.
const searchOnly: Partial<RunLocalAgentOptions> = { maxTools: 1, scorer: (page) => page.map((tool) => (tool.name === 'search_products' ? 10 : 0)) };

/**
 * Runs a request and returns, for its first step, the prose that streamed to the person and the
 * prose the step ended with (where the settle replaced what streamed).
 */
async function firstStep(replies: string[], format: PromptFormat, options: Partial<RunLocalAgentOptions> = {}, chunkSize = 4) {
  const events: AgentEvent[] = [];
  await runLocalAgent({
    request: 'add two mugs',
    model: createReplayEngine(replies, { chunkSize }),
    format,
    getTools: () => [search, add],
    executeTool: async (): Promise<ToolOutput> => ({ text: 'added' }),
    onEvent: (event) => events.push(event),
    ...options,
  });
  let streamed = '';
  let ended = '';
  for (const event of events) {
    if (event.type === 'prose-delta' && event.step === 1) [streamed, ended] = [streamed + event.text, ended + event.text];
    if (event.type === 'prose-replace' && event.step === 1) ended = event.text;
  }
  return { streamed, ended: ended.trim(), events };
}

describe('runLocalAgent: prose after a fenced call (Llama 3) that did not run, to a tool the page offers', () => {
  const cases = {
    'a tool the step did not show': ['```json\n{"name": "add_to_cart", "parameters": {"slug": "mug", "qty": 2}}\n```', searchOnly],
    'arguments that were no object': ['```json\n{"name": "add_to_cart", "parameters": "slug=mug"}\n```', {}],
  } as const;
  for (const [what, [block, options]] of Object.entries(cases)) {
    it.each([1, 4, 1000])(`never streams, as after a tagged call: the model is told and calls again (${what}, chunks of %i)`, async (chunkSize) => {
      const reply = `Adding them now.\n${block}\nDone! I added two mugs.`;
      const { streamed, ended } = await firstStep([reply, 'Two mugs are in your cart.'], llama3JsonFormat, options, chunkSize);
      expect(streamed).toBe('Adding them now.\n');
      expect(ended).toBe('Adding them now.');
    });
  }

  it.each([1, 4, 1000])('streams, and keeps, the prose after a block that calls a tool the page does not offer, up to the call that will run (chunks of %i)', async (chunkSize) => {
    const reply = 'Example:\n```json\n{"name": "fly", "parameters": {}}\n```\nNow adding.\n```json\n{"name": "add_to_cart", "parameters": {"slug": "mug"}}\n```\nDone!';
    const { streamed, ended } = await firstStep([reply, 'A mug is in your cart.'], llama3JsonFormat, {}, chunkSize);
    expect(streamed).toBe('Example:\n\nNow adding.\n');
    expect(ended).toBe('Example:\n\nNow adding.');
  });
});

describe('runLocalAgent: a code fence opened on the prose\'s own line, around a call', () => {
  const call = '<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug", "qty": 2}}</tool_call>';
  it.each([
    ['a tagged call', hermesFormat, `Adding it now: \`\`\`json\n${call}\n\`\`\`\nDone! I added two mugs.`],
    ['a tagged call, the fence never closed', hermesFormat, `Adding it now: \`\`\`\n${call}`],
    ['a fenced call (Llama 3)', llama3JsonFormat, 'Adding it now: ```json\n{"name": "add_to_cart", "parameters": {"slug": "mug", "qty": 2}}\n```\nDone! I added two mugs.'],
  ] as const)('leaves the prose above the card, without the fence marker (%s)', async (_, format, reply) => {
    const { streamed, ended } = await firstStep([reply, 'Two mugs are in your cart.'], format);
    expect(streamed.trim()).toBe('Adding it now:');
    expect(ended).toBe('Adding it now:');
  });

  it('keeps inline code that closed on that line, just before the call', async () => {
    const { ended } = await firstStep([`Adding the one you named, \`\`\`blue mug\`\`\`\n${call}`, 'Done.'], hermesFormat);
    expect(ended).toBe('Adding the one you named, ```blue mug```');
  });

  // The step ends showing what streamed: no fence marker flashes up to be taken back, nor the other way.
  const asStreamed = [
    ['a block closed at a line\'s start, then the wrapper on that line', `Example:\n\`\`\`\nqty=2\n\`\`\` now: \`\`\`json\n${call}\n\`\`\``, 'Example:\n```\nqty=2\n``` now:'],
    ['a wrapper of four backticks', `Adding: \`\`\`\`json\n${call}\n\`\`\`\`\nDone!`, 'Adding:'],
    ['a word in inline code before the call', `Run \`\`\`ls\`\`\`\n${call}\nDone!`, 'Run ```ls```'],
  ] as const;
  for (const [what, reply, expected] of asStreamed) {
    it.each([1, 4, 1000])(`ends as it streamed (${what}, chunks of %i)`, async (chunkSize) => {
      const { streamed, ended } = await firstStep([reply, 'Done.'], hermesFormat, {}, chunkSize);
      expect(streamed.trim()).toBe(expected);
      expect(ended).toBe(expected);
    });
  }
});

describe('runLocalAgent: prose after a call to a tool the page offers that cannot be shown to the model', () => {
  // Too large for a 4096-token context: the model is told why it did not run, and writes again.
  const countries = { type: 'object', properties: { country: { type: 'string', enum: Array.from({ length: 600 }, (_, index) => `Country number ${index} of the world`) } } } as const;
  const shipping: ToolDescriptor = { name: 'set_shipping_country', description: 'Set the shipping country.', inputSchema: countries };
  const tooLarge: Partial<RunLocalAgentOptions> = { contextTokens: 4096, getTools: () => [search, add, shipping] };
  it.each([
    ['tagged', hermesFormat, '<tool_call>{"name": "set_shipping_country", "arguments": {"country": "France"}}</tool_call>'],
    ['fenced', llama3JsonFormat, '```json\n{"name": "set_shipping_country", "parameters": {"country": "France"}}\n```'],
  ] as const)('is never shown: it claims an outcome of a call that did not run, which the next step answers for (%s)', async (_, format, call) => {
    const reply = `Setting it now.\n${call}\nDone! Your parcel ships to France.`;
    const { streamed, ended, events } = await firstStep([reply, 'I cannot set the shipping country here.'], format, tooLarge);
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ name: 'set_shipping_country', message: expect.stringContaining('too large') });
    expect(streamed).toBe('Setting it now.\n');
    expect(ended).toBe('Setting it now.');
  });
});

describe('runLocalAgent: a fence of four backticks around a ``` block (a markdown sample)', () => {
  const call = '<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug"}}</tool_call>';
  const sample = 'Markdown:\n````md\n```js\nx\n```\n````';
  it.each([1, 4, 1000])('streams the sample whole before a call, as the step ends with it (chunks of %i)', async (chunkSize) => {
    const { streamed, ended } = await firstStep([`${sample}\nNow ${call}\nDone`, 'Done.'], hermesFormat, {}, chunkSize);
    expect(streamed.trim()).toBe(`${sample}\nNow`);
    expect(ended).toBe(`${sample}\nNow`);
  });

  it.each([1, 4, 1000])('streams the sample whole in an answer, fences and all (chunks of %i)', async (chunkSize) => {
    const answer = `To show a fence:\n${sample.slice('Markdown:\n'.length)}\nThat is all.`;
    const { streamed, ended } = await firstStep([answer], hermesFormat, {}, chunkSize);
    expect(streamed).toBe(answer);
    expect(ended).toBe(answer);
  });

  it.each([1, 4, 1000])('keeps an emptied fence after the sample hidden: it is no block of the prose kept (chunks of %i)', async (chunkSize) => {
    const { streamed, ended } = await firstStep([`${sample}\n\`\`\`\n\`\`\`\nNow ${call}\nDone`, 'Done.'], hermesFormat, {}, chunkSize);
    expect(streamed.trim()).toBe(`${sample}\n\nNow`);
    expect(ended).toBe(`${sample}\n\nNow`);
  });
});

describe('runLocalAgent: a Llama 3 fenced call closed with text on its fence\'s line', () => {
  const call = '{"name": "add_to_cart", "parameters": {"slug": "mug"}}';
  for (const closing of ['```Done! Added.', '```.', '```json']) {
    it.each([1, 4, 1000])(`runs the call and shows only the prose before it (${closing}, chunks of %i)`, async (chunkSize) => {
      const { streamed, ended, events } = await firstStep([`Adding.\n\`\`\`json\n${call}\n${closing}`, 'A mug is in your cart.'], llama3JsonFormat, {}, chunkSize);
      expect(events.filter((event) => event.type === 'tool-call').map((event) => event.type === 'tool-call' && event.name)).toEqual(['add_to_cart']);
      expect(streamed).toBe('Adding.\n');
      expect(ended).toBe('Adding.');
    });
  }
});

describe('runLocalAgent: a block held as a call that the parse kept as prose, with prose after it', () => {
  const call = '<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug"}}</tool_call>';
  const cases = {
    'an example before a tagged call': ['Example:\n```json\n{"name": "fly", "arguments": {}}\n```\nNow ' + call + '\nDone', 'Example:\n```json\n{"name": "fly", "arguments": {}}\n```\nNow'],
    'an empty block in an answer': ['Here:\n```\n```\nThat is all.', 'Here:\n```\n```\nThat is all.'],
  } as const;
  for (const [what, [reply, kept]] of Object.entries(cases)) {
    it.each([1, 4, 1000])(`is put in its place at once, never shown after the prose that followed it (${what}, chunks of %i)`, async (chunkSize) => {
      const { events, ended } = await firstStep([reply, 'Done.'], hermesFormat, {}, chunkSize);
      const deltas = events.flatMap((event) => (event.type === 'prose-delta' && event.step === 1 ? [event.text] : []));
      expect(deltas.join('')).not.toContain('```');
      expect(ended).toBe(kept);
    });
  }
});

describe('runLocalAgent: prose after a tagged call to a tool the page does not offer', () => {
  // Tags are no example: the model called, the run goes on to tell it the tool is missing, and
  // what it wrote after the call claims an outcome nothing gave.
  it.each([1, 4, 1000])('is never shown, as after any tagged call (chunks of %i)', async (chunkSize) => {
    const reply = 'Checking your order.\n<tool_call>{"name": "track_order", "arguments": {"id": "C-42"}}</tool_call>\nYour order shipped yesterday.';
    const { streamed, ended, events } = await firstStep([reply, 'I cannot track orders on this page.'], hermesFormat, {}, chunkSize);
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ name: 'track_order', kind: 'unknown-tool' });
    expect(streamed).toBe('Checking your order.\n');
    expect(ended).toBe('Checking your order.');
  });
});
