import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, lfm2Format, parseToolCalls, runLocalAgent, type AgentEvent, type PromptFormat } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const tools: ToolDescriptor[] = ['search_products', 'add_to_cart'].map((name) => ({
  name,
  description: name,
  inputSchema: { type: 'object', properties: { slug: { type: 'string' } } },
}));
const hermesCall = (name: string) => `<tool_call>{"name": "${name}", "arguments": {"slug": "mug"}}</tool_call>`;

/** What the model reads at the second step, as the places of each result's words in it. */
async function resultsRead(format: PromptFormat, reply: string): Promise<string> {
  return (await firstStep(format, reply)).read;
}

/** What the model reads at the second step, and the cards of the first step's mistakes (`name:kind`). */
async function firstStep(format: PromptFormat, reply: string): Promise<{ read: string; mistakes: string[] }> {
  const model = createReplayEngine([reply, 'Done.'], { chunkSize: 9 });
  const events: AgentEvent[] = [];
  await runLocalAgent({
    request: 'add a mug',
    model,
    format,
    getTools: () => tools,
    executeTool: async (call): Promise<ToolOutput> => ({ text: call.name === 'search_products' ? 'FOUND mug at 12' : 'ADDED 1 mug' }),
    onEvent: (event) => events.push(event),
  });
  const mistakes = events.flatMap((event) => (event.type === 'tool-error' && event.step === 1 ? [`${event.name}:${event.kind}`] : []));
  return { read: model.requests[1]!.messages.at(-1)!.content, mistakes };
}

/** What each result the model reads says, in the order it reads them. */
function eachResult(text: string): string[] {
  const blocks = text.split(/<tool_response>|<\|tool_response_start\|>/).slice(1);
  return blocks.map((block) => ['FOUND', 'Unknown tool "get_price"', 'ADDED', "Couldn't read"].find((marker) => block.includes(marker)) ?? block);
}

/** The markers in the order they appear in `text`. */
function inOrder(text: string, markers: string[]): string[] {
  return markers.filter((marker) => text.includes(marker)).sort((left, right) => text.indexOf(left) - text.indexOf(right));
}

describe('runLocalAgent: the results of a reply with several calls', () => {
  it('come in the order the model wrote the calls, a missing tool in its place (Qwen)', async () => {
    const read = await resultsRead(hermesFormat, [hermesCall('search_products'), hermesCall('get_price'), hermesCall('add_to_cart')].join('\n'));
    expect(inOrder(read, ['FOUND', 'Unknown tool "get_price"', 'ADDED'])).toEqual(['FOUND', 'Unknown tool "get_price"', 'ADDED']);
  });

  it('come in the order the model wrote the calls, a missing tool in its place (LFM2)', async () => {
    const read = await resultsRead(lfm2Format, '<|tool_call_start|>[search_products(slug="mug"), get_price(slug="mug"), add_to_cart(slug="mug")]<|tool_call_end|>');
    expect(inOrder(read, ['FOUND', 'Unknown tool "get_price"', 'ADDED'])).toEqual(['FOUND', 'Unknown tool "get_price"', 'ADDED']);
  });

  it('give a call that could not be read at all its reply after the others', async () => {
    const read = await resultsRead(hermesFormat, `${hermesCall('search_products')}\n${hermesCall('get_price')}\n<tool_call>{"arguments": {}}</tool_call>`);
    expect(inOrder(read, ['FOUND', 'Unknown tool "get_price"', "Couldn't read a tool call"])).toEqual(['FOUND', 'Unknown tool "get_price"', "Couldn't read a tool call"]);
  });

  // Qwen and LFM2 pair each result with its call by position: one missing from its place would
  // give every later call the answer of the one before it.
  it('give each call to the same missing tool its answer, so the later results keep their places (Qwen)', async () => {
    const read = await resultsRead(hermesFormat, [hermesCall('search_products'), hermesCall('get_price'), hermesCall('get_price'), hermesCall('add_to_cart')].join('\n'));
    expect(eachResult(read)).toEqual(['FOUND', 'Unknown tool "get_price"', 'Unknown tool "get_price"', 'ADDED']);
  });

  it('give each call to the same missing tool its answer, so the later results keep their places (LFM2)', async () => {
    const read = await resultsRead(lfm2Format, '<|tool_call_start|>[get_price(slug="mug"), search_products(slug="mug"), get_price(slug="cap"), add_to_cart(slug="mug")]<|tool_call_end|>');
    expect(eachResult(read)).toEqual(['Unknown tool "get_price"', 'FOUND', 'Unknown tool "get_price"', 'ADDED']);
  });

  // A code sample is prose: the model showed it, it did not call it.
  it('give a code sample naming a missing tool no answer and no card, so the next result keeps its place', async () => {
    const fenced = (language: string, name: string, slug: string) => `\`\`\`${language}\n{"name": "${name}", "arguments": {"slug": "${slug}"}}\n\`\`\``;
    const reply = [fenced('json', 'get_price', 'mug'), 'A call looks like:', fenced('js', 'get_price', 'cap'), fenced('json', 'search_products', 'mug')].join('\n');
    const { read, mistakes } = await firstStep(hermesFormat, reply);
    expect(eachResult(read)).toEqual(['Unknown tool "get_price"', 'FOUND']);
    expect(mistakes).toEqual(['get_price:unknown-tool']);
  });

  it('give a call to a missing tool whose arguments cannot be read its answer in its place (Qwen)', async () => {
    const reply = ['"mug"', '{"slug": "cap"}'].map((args) => `<tool_call>{"name": "get_price", "arguments": ${args}}</tool_call>`).join('\n');
    const read = await resultsRead(hermesFormat, `${reply}\n${hermesCall('search_products')}`);
    expect(eachResult(read)).toEqual(['Unknown tool "get_price"', 'Unknown tool "get_price"', 'FOUND']);
  });

  it('give a call to a missing tool whose arguments cannot be read its answer in its place (LFM2)', async () => {
    const read = await resultsRead(lfm2Format, '<|tool_call_start|>[get_price(slug=mug), search_products(slug="mug")]<|tool_call_end|>');
    expect(eachResult(read)).toEqual(['Unknown tool "get_price"', 'FOUND']);
  });

  it('give each copy of a call that could not be read its answer in its place', async () => {
    const unreadable = '<tool_call>{"arguments": {}}</tool_call>';
    const read = await resultsRead(hermesFormat, [unreadable, hermesCall('search_products'), unreadable, hermesCall('add_to_cart')].join('\n'));
    expect(eachResult(read)).toEqual(["Couldn't read", 'FOUND', "Couldn't read", 'ADDED']);
  });

  it('come as a format of its own read them, calls first, where its parseReply gives a result of its own', async () => {
    const ownFormat: PromptFormat = { ...hermesFormat, parseReply: (raw, names) => ({ ...parseToolCalls(raw, names) }) };
    const read = await resultsRead(ownFormat, [hermesCall('get_price'), hermesCall('search_products'), hermesCall('get_price')].join('\n'));
    expect(eachResult(read)).toEqual(['FOUND', 'Unknown tool "get_price"']);
  });

  it('come as parsed where a format changes the parse\'s result before handing it on', async () => {
    const dropsFirst: PromptFormat = { ...hermesFormat, parseReply: (raw, names) => {
      const parsed = parseToolCalls(raw, names);
      parsed.calls.splice(0, 1);
      return parsed;
    } };
    const read = await resultsRead(dropsFirst, [hermesCall('add_to_cart'), hermesCall('get_price'), hermesCall('search_products')].join('\n'));
    expect(eachResult(read)).toEqual(['FOUND', 'Unknown tool "get_price"']);
  });
});
