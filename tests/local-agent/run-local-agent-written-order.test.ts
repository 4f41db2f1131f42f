import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, lfm2Format, runLocalAgent, type PromptFormat } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const tools: ToolDescriptor[] = ['search_products', 'add_to_cart'].map((name) => ({
  name,
  description: name,
  inputSchema: { type: 'object', properties: { slug: { type: 'string' } } },
}));
const hermesCall = (name: string) => `<tool_call>{"name": "${name}", "arguments": {"slug": "mug"}}</tool_call>`;

/** What the model reads at the second step, as the places of each result's words in it. */
async function resultsRead(format: PromptFormat, reply: string): Promise<string> {
  const model = createReplayEngine([reply, 'Done.'], { chunkSize: 9 });
  await runLocalAgent({
    request: 'add a mug',
    model,
    format,
    getTools: () => tools,
    executeTool: async (call): Promise<ToolOutput> => ({ text: call.name === 'search_products' ? 'FOUND mug at 12' : 'ADDED 1 mug' }),
  });
  return model.requests[1]!.messages.at(-1)!.content;
}

/** What each result the model reads says, in the order it reads them. */
function eachResult(text: string): string[] {
  const blocks = text.split(/<tool_response>|<\|tool_response_start\|>/).slice(1);
  return blocks.map((block) => ['FOUND', 'Unknown tool "get_price"', 'ADDED'].find((marker) => block.includes(marker)) ?? block);
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
});
