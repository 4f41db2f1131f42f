import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, type AgentEvent, type ParsedCall, type RunLocalAgentOptions } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

// A shop of 12 tools: more than the 8 a step shows.
const names = ['search_products', 'add_to_cart', 'get_cart', 'remove_item', 'checkout', 'list_orders', 'track_order', 'get_reviews', 'write_review', 'subscribe_newsletter', 'contact_support', 'apply_coupon'];
const tools: ToolDescriptor[] = names.map((name) => ({
  name,
  description: `${name.replace(/_/g, ' ')}.`,
  inputSchema: { type: 'object', properties: { code: { type: 'string' } } },
}));
const couponCall = '<tool_call>{"name": "apply_coupon", "arguments": {"code": "WELCOME5"}}</tool_call>';

async function followUp(replies: string[], options: Partial<RunLocalAgentOptions> = {}) {
  const model = createReplayEngine(replies, { chunkSize: 50 });
  const ran: ParsedCall[] = [];
  const events: AgentEvent[] = [];
  const result = await runLocalAgent({
    request: 'that did not work, try WELCOME5 instead',
    history: [
      { role: 'user', content: 'apply the coupon SAVE10' },
      { role: 'assistant', content: 'The shop said SAVE10 is not a valid code.' },
    ],
    model,
    format: hermesFormat,
    getTools: () => tools,
    executeTool: async (call): Promise<ToolOutput> => (ran.push(call), { text: 'Coupon applied.' }),
    onEvent: (event) => events.push(event),
    ...options,
  });
  const shown = events.flatMap((event) => (event.type === 'step-start' ? [event.tools.map(({ tool }) => tool.name)] : []));
  return { result, ran, shown, model, events };
}

describe('runLocalAgent: a follow-up on a page with more tools than a step shows', () => {
  it('shows the tools the conversation called lately, though the new words do not name them', async () => {
    const { result, ran, shown } = await followUp([couponCall, 'Done.'], { recentTools: ['apply_coupon'] });
    expect(shown[0]).toContain('apply_coupon');
    expect(ran).toEqual([{ name: 'apply_coupon', arguments: { code: 'WELCOME5' } }]);
    expect(result.finishReason).toBe('answer');
  });

  it('tells the model a tool the page offers but the step did not show is shown now, and runs it when asked again', async () => {
    const { result, ran, shown, model, events } = await followUp([couponCall, couponCall, 'Done.']);
    expect(shown[0]).not.toContain('apply_coupon');
    expect(shown[1]).toContain('apply_coupon');
    const read = model.requests[1]!.messages.at(-1)!.content;
    expect(read).toContain('"apply_coupon" was not among your tools at this step, so it did not run. It is among them now: call it again if the request needs it.');
    expect(read).not.toContain('Unknown tool');
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ name: 'apply_coupon', kind: 'unknown-tool', shownCount: 8 });
    expect(ran).toEqual([{ name: 'apply_coupon', arguments: { code: 'WELCOME5' } }]);
    expect(result.finishReason).toBe('answer');
  });

  it('shows the tool asked for in place of the lowest ranked, however well the others score', async () => {
    const scorer = (page: readonly ToolDescriptor[]) => page.map((tool) => (tool.name === 'apply_coupon' ? 0 : 10));
    const { ran, shown } = await followUp([couponCall, couponCall, 'Done.'], { scorer });
    expect(shown[1]).toEqual([...names.slice(0, 7), 'apply_coupon']);
    expect(ran).toHaveLength(1);
  });

  it('fits the tool asked for to the context before the best scored', async () => {
    const choices = { type: 'object', properties: { option: { enum: Array.from({ length: 150 }, (_, index) => `option ${index}`) } } };
    const large = tools.map((tool) => ({ ...tool, inputSchema: choices }));
    const scorer = (page: readonly ToolDescriptor[]) => page.map((tool) => (tool.name === 'apply_coupon' ? 0 : 10));
    const { ran, shown } = await followUp([couponCall, couponCall, 'Done.'], { scorer, contextTokens: 4096, getTools: () => large });
    // Only some of the 8 fit: the others are left out before the tool the model was told it has.
    expect(shown[1]!.length).toBeLessThan(8);
    expect(shown[1]).toContain('apply_coupon');
    expect(ran).toHaveLength(1);
  });

  it('does not promise a tool too large for the context, and says why it is not shown', async () => {
    const countries = { type: 'object', properties: { country: { type: 'string', enum: Array.from({ length: 600 }, (_, index) => `Country number ${index} of the world`) } } };
    const page = [...tools.slice(0, 3), { name: 'set_shipping_country', description: 'Set the shipping country.', inputSchema: countries }];
    const countryCall = '<tool_call>{"name": "set_shipping_country", "arguments": {"country": "Country number 5 of the world"}}</tool_call>';
    const { result, ran, shown, model, events } = await followUp([countryCall, 'Done.'], { contextTokens: 4096, getTools: () => page });
    const told = '"set_shipping_country" was not among your tools at this step, so it did not run: it is too large to be shown with this model\'s context. Available now: search_products, add_to_cart, get_cart.';
    expect(shown).toEqual([names.slice(0, 3), names.slice(0, 3)]);
    expect(model.requests[1]!.messages.at(-1)!.content).toContain(told);
    // The person's card reads the same, true words.
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ name: 'set_shipping_country', kind: 'unknown-tool', shownCount: 3, message: told });
    expect(ran).toEqual([]);
    expect(result.finishReason).toBe('answer');
  });

  it("says the step's slots are taken, not that a small tool is too large, where tools asked for before fill them", async () => {
    const call = (name: string) => `<tool_call>{"name": "${name}", "arguments": {}}</tool_call>`;
    const { events } = await followUp([call('get_cart') + call('apply_coupon') + call('checkout'), 'Done.'], { maxTools: 2 });
    const told = events.flatMap((event) => (event.type === 'tool-error' && event.name === 'checkout' ? [event.message] : []));
    expect(told).toEqual([expect.stringMatching(/^"checkout" was not among your tools at this step, so it did not run: a step shows only so many tools, and those you asked for before take their places\. Available now: /)]);
  });

  it("says the tools asked for before take the room, not that a tool that fits alone is too large", async () => {
    const form = (what: string): ToolDescriptor => ({
      name: `fill_${what}`,
      description: `Fill the ${what} address form. The country field accepts any of: ${Array.from({ length: 200 }, (_, index) => `Country${index}`).join(', ')}.`,
      inputSchema: { type: 'object', properties: { country: { type: 'string' } } },
    });
    const page = [tools[0]!, form('shipping'), form('billing')];
    const call = (name: string) => `<tool_call>{"name": "${name}", "arguments": {}}</tool_call>`;
    const { events } = await followUp([call('fill_billing'), call('fill_shipping'), 'Done.'], { contextTokens: 2000, getTools: () => page });
    const told = events.flatMap((event) => (event.type === 'tool-error' && event.name === 'fill_shipping' ? [event.message] : []));
    expect(told).toEqual([expect.stringMatching(/so it did not run: a step shows only so many tools, and those you asked for before take their places\./)]);
  });
});

