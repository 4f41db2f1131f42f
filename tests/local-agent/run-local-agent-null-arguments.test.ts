import { describe, expect, it } from 'vitest';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { lfm2Format, runLocalAgent, type AgentEvent, type ParsedCall } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../../lib/engines/replay-engine';

const search: ToolDescriptor = {
  name: 'search',
  description: 'Search the people directory.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, role: { type: 'string' }, limit: { type: 'integer', default: 10 }, team: { type: ['string', 'null'] } },
    required: ['query'],
  },
};

async function run(reply: string) {
  const model = createReplayEngine([reply, 'Done.'], { chunkSize: 7 });
  const sent: ParsedCall[] = [];
  const events: AgentEvent[] = [];
  await runLocalAgent({
    request: 'find the mug people',
    model,
    format: lfm2Format,
    getTools: () => [search],
    executeTool: async (call): Promise<ToolOutput> => (sent.push(call), { text: 'Ann, Bo' }),
    onEvent: (event) => events.push(event),
  });
  const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.arguments] : []));
  return { sent, calls, read: model.requests[1]!.messages.at(-1)!.content };
}

describe('runLocalAgent: an optional argument the model sent as null', () => {
  it('is left out, so the page applies its default, and the card shows the arguments sent', async () => {
    const { sent, calls, read } = await run('<|tool_call_start|>[search(query="mug", role=None, limit=None, team=None)]<|tool_call_end|>');
    expect(sent).toEqual([{ name: 'search', arguments: { query: 'mug', team: null } }]);
    expect(calls).toEqual([{ query: 'mug', team: null }]);
    expect(read).toContain('Ann, Bo');
    expect(read).not.toContain('got null');
  });

  it('is still refused where the argument is required', async () => {
    const { sent, read } = await run('<|tool_call_start|>[search(query=None)]<|tool_call_end|>');
    expect(sent).toEqual([]);
    expect(read).toContain('"query" must be string, got null.');
  });
});
