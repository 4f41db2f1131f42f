import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, lfm2Format, llama3JsonFormat, promptApiFormat, runLocalAgent, type PromptFormat, type RunLocalAgentOptions } from '@webmcp-agents/local-agent';
import { applyAgentEvent } from '../../lib/agent/apply-agent-event';
import type { Turn } from '../../lib/agent/session-state';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const tools: ToolDescriptor[] = [
  {
    name: 'add_to_cart',
    description: 'Add a product to the cart.',
    inputSchema: { type: 'object', properties: { slug: { type: 'string' }, qty: { type: 'integer' } }, required: ['slug'] },
  },
];

/**
 * Runs one request as the side panel shows it: every event applied to the turn. `streamed` is all
 * the prose that streamed to the person, before any settle replaced it.
 */
async function runTurn(replies: string[], format: PromptFormat, allow: boolean, options: Partial<RunLocalAgentOptions> = {}, chunkSize = 4) {
  const model = createReplayEngine(replies, { chunkSize });
  let turn: Turn = { id: 't', request: 'add two mugs', items: [], startedAt: 0 };
  let atApproval: Turn['items'] = [];
  let streamed = '';
  await runLocalAgent({
    request: 'add two mugs',
    model,
    format,
    getTools: () => tools,
    onEvent: (event) => {
      if (event.type === 'prose-delta') streamed += event.text;
      turn = applyAgentEvent(turn, event);
    },
    approve: async () => {
      atApproval = turn.items;
      return allow;
    },
    executeTool: async (): Promise<ToolOutput> => ({ text: 'added' }),
    ...options,
  });
  const prose = (items: Turn['items']) => items.flatMap((item) => (item.kind === 'prose' ? [item.text.trim()] : [item.kind]));
  return { atApproval: prose(atApproval), end: prose(turn.items), model, streamed };
}

describe('prose a model writes after its call, in the same reply', () => {
  const shapes = {
    hermes: {
      format: hermesFormat,
      reply: 'Adding them now.\n<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug", "qty": 2}}</tool_call>\nDone! I added two mugs to your cart.',
    },
    lfm2: {
      format: lfm2Format,
      reply: 'Adding them now.\n<|tool_call_start|>[add_to_cart(slug="mug", qty=2)]<|tool_call_end|>Done! I added two mugs to your cart.',
    },
  };

  for (const [name, { format, reply }] of Object.entries(shapes)) {
    it(`is not shown as fact above the card that asks to allow the call, nor after a no (${name})`, async () => {
      const { atApproval, end, model } = await runTurn([reply, 'OK, I did not add them.'], format, false);
      // What the model wrote before its call stays.
      expect(atApproval).toEqual(['Adding them now.', 'tool']);
      expect(end).toEqual(['Adding them now.', 'tool', 'OK, I did not add them.']);
      // The model still reads its whole reply.
      expect(model.requests[1]!.messages.map((message) => message.content).join('\n')).toContain('Done! I added two mugs to your cart.');
    });
  }

  it('is not shown once the call ran either: the next step says what happened', async () => {
    const { end } = await runTurn([shapes.hermes.reply, 'Two mugs are in your cart.'], hermesFormat, true);
    expect(end).toEqual(['Adding them now.', 'tool', 'Two mugs are in your cart.']);
  });

  it("leaves no tag above the card of a format that reads only whole replies (Chrome's built-in model)", async () => {
    const call = '<tool_call>\n{"name":"add_to_cart","arguments":{"slug":"mug","qty":2}}\n</tool_call>';
    const { atApproval, end } = await runTurn([call, 'Two mugs are in your cart.'], promptApiFormat, true);
    expect(atApproval).toEqual(['tool']);
    expect(end).toEqual(['tool', 'Two mugs are in your cart.']);
  });

  it('keeps a code block that closed before the call whole', async () => {
    const reply = `Your list:\n\`\`\`\nmug x2\n\`\`\`\n${shapes.hermes.reply.slice('Adding them now.\n'.length)}`;
    const { end } = await runTurn([reply, 'Done.'], hermesFormat, true);
    expect(end).toEqual(['Your list:\n```\nmug x2\n```', 'tool', 'Done.']);
  });

  it("is not shown where the reply's only call was refused: the model is told, and its next reply answers", async () => {
    const reply = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\nIt is sunny in Paris.';
    const { end } = await runTurn([reply, 'Sorry, I cannot check the weather here.'], hermesFormat, true);
    expect(end).toEqual(['tool', 'Sorry, I cannot check the weather here.']);
  });

  it('is not shown after a call to a tool the page offers that the step did not show: it is called next', async () => {
    const search: ToolDescriptor = { name: 'search_products', description: 'Search the products.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } };
    // One tool a step, and the ranking puts the search first.
    const options = { getTools: () => [search, ...tools], maxTools: 1, scorer: (page: readonly ToolDescriptor[]) => page.map((tool) => (tool.name === 'search_products' ? 10 : 0)) };
    const { atApproval, end } = await runTurn([shapes.hermes.reply, shapes.hermes.reply, 'Two mugs are in your cart.'], hermesFormat, true, options);
    expect(atApproval).toEqual(['Adding them now.', 'tool', 'Adding them now.', 'tool']);
    expect(end).toEqual(['Adding them now.', 'tool', 'Adding them now.', 'tool', 'Two mugs are in your cart.']);
  });

  it('drops the fence that wraps the call, after an inline mention of a fence', async () => {
    const reply = `Use \`\`\` for code.\n\`\`\`json\n${shapes.hermes.reply.slice('Adding them now.\n'.length).replace('\nDone!', '\n\`\`\`\nDone!')}`;
    const { end } = await runTurn([reply, 'Done.'], hermesFormat, true);
    expect(end).toEqual(['Use ``` for code.', 'tool', 'Done.']);
  });

  it('is not shown after a call whose arguments were no object: the model is told and calls again', async () => {
    const reply = 'Adding them now.\n<tool_call>{"name": "add_to_cart", "arguments": "slug=mug"}</tool_call>\nDone! I added two mugs to your cart.';
    const good = 'Adding them now.\n<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug", "qty": 2}}</tool_call>\nDone! I added two mugs to your cart.';
    const { atApproval } = await runTurn([reply, good, 'Two mugs are in your cart.'], hermesFormat, true);
    expect(atApproval).toEqual(['Adding them now.', 'tool', 'Adding them now.', 'tool']);
  });
});

describe('prose a model writes after a call in a ``` fenced block (Llama 3), in the same reply', () => {
  const call = '```json\n{"name": "add_to_cart", "parameters": {"slug": "mug", "qty": 2}}\n```';
  const reply = `Adding them now.\n${call}\nDone! I added two mugs to your cart.`;
  // Small chunks, and the whole reply in one.
  const chunkSizes = [1, 4, reply.length];

  for (const chunkSize of chunkSizes) {
    it(`is not shown above the card that asks to allow the call, nor after a no (chunks of ${chunkSize})`, async () => {
      const { atApproval, end, model, streamed } = await runTurn([reply, 'OK, I did not add them.'], llama3JsonFormat, false, {}, chunkSize);
      expect(streamed).not.toContain('Done!');
      // What the model wrote before its call stays.
      expect(atApproval).toEqual(['Adding them now.', 'tool']);
      expect(end).toEqual(['Adding them now.', 'tool', 'OK, I did not add them.']);
      // The model still reads its whole reply.
      expect(model.requests[1]!.messages.map((message) => message.content).join('\n')).toContain('Done! I added two mugs to your cart.');
    });

    it(`is not shown once the call ran either (chunks of ${chunkSize})`, async () => {
      const { atApproval, end, streamed } = await runTurn([reply, 'Two mugs are in your cart.'], llama3JsonFormat, true, {}, chunkSize);
      expect(streamed).not.toContain('Done!');
      expect(atApproval).toEqual(['Adding them now.', 'tool']);
      expect(end).toEqual(['Adding them now.', 'tool', 'Two mugs are in your cart.']);
    });
  }

  it('leaves nothing above the card of a reply that opens with the call', async () => {
    const { atApproval, end } = await runTurn([`${call}\nDone! I added two mugs to your cart.`, 'Two mugs are in your cart.'], llama3JsonFormat, true);
    expect(atApproval).toEqual(['tool']);
    expect(end).toEqual(['tool', 'Two mugs are in your cart.']);
  });

  it.each([1, 4, 1000])('still streams a code block that is not a call, and the prose after it, before the call (chunks of %i)', async (chunkSize) => {
    const shown = 'Your list:\n```\nmug x2\n```\nAdding them now.';
    const { atApproval, end, streamed } = await runTurn([`${shown}\n${reply.slice('Adding them now.\n'.length)}`, 'Done.'], llama3JsonFormat, true, {}, chunkSize);
    expect(streamed).toBe(`${shown}\nDone.`);
    expect(atApproval).toEqual([shown, 'tool']);
    expect(end).toEqual([shown, 'tool', 'Done.']);
  });

  it("is shown where the reply's only fenced call names a tool the page does not offer: it is the answer", async () => {
    const refused = '```json\n{"name": "get_weather", "parameters": {"city": "Paris"}}\n```\nI cannot check the weather here.';
    const { end, streamed } = await runTurn([refused, 'Sorry, no weather here.'], llama3JsonFormat, true, {}, 1);
    // It streams as it comes: a Stop or a failed reply would not lose it.
    expect(streamed).toContain('I cannot check the weather here.');
    expect(end).toEqual(['I cannot check the weather here.', 'tool', 'Sorry, no weather here.']);
  });

  it('keeps an example the parse left as prose, and the words after it, before the call', async () => {
    const shown = 'Format:\n```json\n{"name": "<tool>", "arguments": {...}}\n```\nNow adding:';
    const { atApproval } = await runTurn([`${shown}\n${call}\nDone! I added two mugs.`, 'Done.'], llama3JsonFormat, true);
    expect(atApproval[0]).toBe(shown);
    expect(atApproval.slice(1)).not.toContain(expect.stringContaining('Done!'));
  });

  it('cuts before the call, not at a draft of it in reasoning the reply did not open', async () => {
    const draft = 'I should add. ```json\n{"name": "add_to_cart", "parameters": {"slug": "draft"}}\n```</think>\n';
    const { atApproval } = await runTurn([`${draft}Adding.\n${call}\nDone! I added two mugs.`, 'Done.'], llama3JsonFormat, true);
    expect(atApproval).toEqual(['Adding.', 'tool']);
  });
});

