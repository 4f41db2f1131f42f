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
  it('answers "Unknown tool" for a tool the tab offers but this step did not show, and never runs it', async () => {
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
    expect(model.requests[1]!.messages.at(-1)!.content).toContain('Unknown tool "tool_11"');
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
