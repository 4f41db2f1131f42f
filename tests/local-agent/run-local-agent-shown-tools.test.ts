import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, type AgentEvent, type ParsedCall } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const manyTools: ToolDescriptor[] = Array.from({ length: 12 }, (_, index) => ({
  name: `tool_${index}`,
  description: index === 0 ? 'Search the mugs catalogue.' : `Unrelated thing number ${index}.`,
  inputSchema: { type: 'object', properties: {} },
}));
const call = (name: string) => `<tool_call>{"name": "${name}", "arguments": {}}</tool_call>`;

describe('runLocalAgent: what the model is shown, may call, and how a stop ends', () => {
  it('shows the model a tool the request names as it is named, among hundreds whose names differ only by a number', async () => {
    const bulk: ToolDescriptor[] = Array.from({ length: 400 }, (_, index) => ({
      name: `bulk_${String(index).padStart(3, '0')}`,
      description: `Bulk action number ${index}.`,
      inputSchema: { type: 'object', properties: {} },
    }));
    const events: AgentEvent[] = [];
    await runLocalAgent({
      request: 'call bulk_399 please',
      model: createReplayEngine(['Done.']),
      format: hermesFormat,
      getTools: () => bulk,
      executeTool: async () => ({ text: 'ran' }),
      onEvent: (event) => events.push(event),
    });
    const shown = events.find((event) => event.type === 'step-start')!.tools;
    expect(shown).toHaveLength(8);
    expect(shown.find(({ tool }) => tool.name === 'bulk_399')).toMatchObject({ asked: true });
  });

  it('does not take a plain word of the request for a tool\'s name', async () => {
    const tools: ToolDescriptor[] = [
      ...manyTools,
      { name: 'checkout', description: 'Pay for the cart.', inputSchema: { type: 'object', properties: {} } },
    ];
    const events: AgentEvent[] = [];
    await runLocalAgent({
      request: 'search mugs, then checkout',
      model: createReplayEngine(['Done.']),
      format: hermesFormat,
      maxTools: 2,
      getTools: () => tools,
      executeTool: async () => ({ text: 'ran' }),
      onEvent: (event) => events.push(event),
    });
    expect(events.find((event) => event.type === 'step-start')!.tools.some(({ asked }) => asked)).toBe(false);
  });

  it('tells the model a tool the tab offers but this step did not show did not run, and never runs that call', async () => {
    const model = createReplayEngine([call('tool_11'), 'Done.'], { chunkSize: 8 });
    const executed: string[] = [];
    const result = await runLocalAgent({
      request: 'search mugs',
      model,
      format: hermesFormat,
      maxTools: 2,
      getTools: () => manyTools,
      executeTool: async (parsed: ParsedCall): Promise<ToolOutput> => (executed.push(parsed.name), { text: 'ran' }),
    });
    expect(executed).toEqual([]);
    expect(result.finishReason).toBe('answer');
    expect(model.requests[1]!.messages.at(-1)!.content).toContain('"tool_11" was not among your tools at this step, so it did not run.');
  });

  it('tells the person whether an unknown tool is on the page but not shown, or not on the page at all', async () => {
    const events: AgentEvent[] = [];
    await runLocalAgent({
      request: 'search mugs',
      model: createReplayEngine([`${call('tool_11')}\n${call('delete_everything')}`, 'Done.'], { chunkSize: 8 }),
      format: hermesFormat,
      maxTools: 2,
      getTools: () => manyTools,
      executeTool: async () => ({ text: 'ran' }),
      onEvent: (event) => events.push(event),
    });
    const errors = events.flatMap((event) => (event.type === 'tool-error' ? [event] : []));
    expect(errors.map(({ name, kind, shownCount }) => ({ name, kind, shownCount }))).toEqual([
      { name: 'tool_11', kind: 'unknown-tool', shownCount: 2 },
      { name: 'delete_everything', kind: 'unknown-tool', shownCount: undefined },
    ]);
    // A tool the page offers is not "unknown": the model reads that it is shown from now on.
    expect(errors[0]!.message).toBe('"tool_11" was not among your tools at this step, so it did not run. It is among them now: call it again if the request needs it.');
    expect(errors[1]!.message).toBe('Unknown tool "delete_everything". Available now: tool_0, tool_1.');
  });

  it('says at each step how many tools the page offered, and names those not shown with their scores', async () => {
    const events: AgentEvent[] = [];
    await runLocalAgent({
      request: 'search mugs',
      model: createReplayEngine(['Nothing.'], { chunkSize: 8 }),
      format: hermesFormat,
      maxTools: 2,
      getTools: () => manyTools,
      executeTool: async () => ({ text: '' }),
      onEvent: (event) => events.push(event),
    });
    const start = events.find((event) => event.type === 'step-start');
    expect(start?.type === 'step-start' && start.tools.map(({ tool }) => tool.name)).toEqual(['tool_0', 'tool_1']);
    // Only tool_0 matches the request; the rest score 0 and keep the page's order.
    expect(start).toMatchObject({
      offeredCount: 12,
      notShownCount: 10,
      notShown: Array.from({ length: 10 }, (_, index) => ({ name: `tool_${index + 2}`, score: 0 })),
    });
  });

  it('names at most the 50 best scored of the tools not shown, so a page of 500 tools does not fill every step', async () => {
    const pageTools: ToolDescriptor[] = Array.from({ length: 500 }, (_, index) => ({ name: `tool_${index}`, description: '', inputSchema: { type: 'object' } }));
    const events: AgentEvent[] = [];
    await runLocalAgent({
      request: 'anything',
      model: createReplayEngine(['Nothing.'], { chunkSize: 8 }),
      format: hermesFormat,
      // The later a tool, the better it scores: the best are tool_499, tool_498, …
      scorer: (tools) => tools.map((_, index) => index),
      getTools: () => pageTools,
      executeTool: async () => ({ text: '' }),
      onEvent: (event) => events.push(event),
    });
    const start = events.find((event) => event.type === 'step-start');
    expect(start?.type === 'step-start' && start.tools.map(({ tool }) => tool.name)).toEqual(Array.from({ length: 8 }, (_, index) => `tool_${499 - index}`));
    expect(start).toMatchObject({
      offeredCount: 500,
      notShownCount: 492,
      notShown: Array.from({ length: 50 }, (_, index) => ({ name: `tool_${491 - index}`, score: 491 - index })),
    });
  });

  it('shows the model 8 tools by default', async () => {
    const events: AgentEvent[] = [];
    await runLocalAgent({
      request: 'search mugs',
      model: createReplayEngine(['Nothing.'], { chunkSize: 8 }),
      format: hermesFormat,
      getTools: () => manyTools,
      executeTool: async () => ({ text: '' }),
      onEvent: (event) => events.push(event),
    });
    const start = events.find((event) => event.type === 'step-start');
    expect(start?.type === 'step-start' && start.tools.length).toBe(8);
  });

  it('ends as stopped, not as an error, when reading the tools fails because the run was stopped meanwhile', async () => {
    const controller = new AbortController();
    const result = await runLocalAgent({
      request: 'search mugs',
      model: createReplayEngine(['Nothing.'], { chunkSize: 8 }),
      format: hermesFormat,
      signal: controller.signal,
      // The tab closed: the run is stopped, and the registry read fails with its own error.
      getTools: () => {
        controller.abort();
        throw new Error('No tab with id 7.');
      },
      executeTool: async () => ({ text: '' }),
    });
    expect(result.finishReason).toBe('aborted');
  });
});
