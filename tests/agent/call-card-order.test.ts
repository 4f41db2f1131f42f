import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent } from '@webmcp-agents/local-agent';
import { applyAgentEvent } from '../../lib/agent/apply-agent-event';
import type { Turn } from '../../lib/agent/session-state';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const tool = (name: string, description: string): ToolDescriptor => ({ name, description, inputSchema: { type: 'object', properties: { slug: { type: 'string' } } } });
// Two tools shown (the request names them); `gift_wrap` is on the page but not shown.
const tools = [tool('search_products', 'Search the products.'), tool('add_to_cart', 'Add a product to the cart.'), tool('gift_wrap', 'Wrap a parcel.')];
const call = (name: string, slug = 'mug') => `<tool_call>{"name": "${name}", "arguments": {"slug": "${slug}"}}</tool_call>`;

/** The cards the side panel shows for a request, as `name(slug):state`, in the order they stand. */
async function cards(replies: string[]): Promise<string[]> {
  let turn: Turn = { id: 't', request: 'search products and add a mug to the cart', items: [], startedAt: 0 };
  await runLocalAgent({
    request: turn.request,
    model: createReplayEngine(replies, { chunkSize: 7 }),
    format: hermesFormat,
    maxTools: 2,
    getTools: () => tools,
    executeTool: async (): Promise<ToolOutput> => ({ text: 'ok' }),
    onEvent: (event) => (turn = applyAgentEvent(turn, event)),
  });
  return turn.items.flatMap((item) => (item.kind === 'tool' ? [`${item.name}(${String(item.arguments['slug'] ?? '')}):${item.state}`] : []));
}

describe('the cards of a reply with several calls', () => {
  it('stand in the order the model wrote the calls, a tool it was not shown and one the page lacks in their places', async () => {
    const reply = [call('search_products'), call('gift_wrap'), call('add_to_cart'), call('get_price')].join('\n');
    expect(await cards([reply, 'Done.'])).toEqual(['search_products(mug):done', 'gift_wrap(mug):unknown', 'add_to_cart(mug):done', 'get_price(mug):unknown']);
  });

  it('show each call to the same missing tool, with what the model wrote for it', async () => {
    const reply = [call('get_price', 'mug'), call('search_products'), call('get_price', 'cap')].join('\n');
    expect(await cards([reply, 'Done.'])).toEqual(['get_price(mug):unknown', 'search_products(mug):done', 'get_price(cap):unknown']);
  });

  it('count a missing tool written twice in one reply once toward the repeated-mistake stop, as a stutter', async () => {
    const twice = `${call('get_price', 'mug')}\n${call('get_price', 'cap')}`;
    expect(await cards([twice, twice, 'Done.'])).toEqual(['get_price(mug):unknown', 'get_price(cap):unknown', 'get_price(mug):unknown', 'get_price(cap):unknown']);
  });

  it('stop at the third call to the same missing tool, after the calls written before it ran', async () => {
    const replies = [call('get_price'), call('get_price'), `${call('search_products')}\n${call('get_price')}\n${call('add_to_cart')}`, 'Never read.'];
    expect(await cards(replies)).toEqual(['get_price(mug):unknown', 'get_price(mug):unknown', 'search_products(mug):done', 'get_price(mug):unknown']);
  });
});
