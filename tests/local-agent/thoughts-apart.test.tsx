// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, type AgentEvent, type LanguageModel, type ModelChunk } from '@webmcp-agents/local-agent';
import { StepView } from '@/components/traces/step-view';
import { TraceBuilder } from '@/lib/traces/trace-builder';
import { storedTraceSchema, type TraceStep } from '@/lib/traces/trace-schema';

const search: ToolDescriptor = {
  name: 'search_products',
  description: 'Search the catalogue by a key word.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
const call = '<tool_call>\n{"name": "search_products", "arguments": {"query": "mug"}}\n</tool_call>';

/** A server's model that thinks apart from its replies (reasoning it streams on its own), each reply given as chunks. */
function thinkingModel(replies: ModelChunk[][], stop?: AbortController): LanguageModel {
  return {
    async *stream({ signal }): AsyncGenerator<ModelChunk> {
      const chunks = replies.shift();
      if (!chunks) {
        // The person stops the run while the model still thinks.
        yield { type: 'thinking', text: 'Still weighing the mugs' };
        stop?.abort();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return;
      }
      yield* chunks;
    },
  };
}

async function run(model: LanguageModel, signal?: AbortSignal) {
  const events: AgentEvent[] = [];
  const result = await runLocalAgent({
    request: 'find a mug',
    model,
    format: hermesFormat,
    contextTokens: 4_096,
    getTools: () => [search],
    executeTool: async () => ({ text: 'enamel-mug' }),
    onEvent: (event) => void events.push(event),
    ...(signal ? { signal } : {}),
  });
  return { result, events };
}

function traceSteps(events: AgentEvent[]): TraceStep[] {
  const startedAt = Date.UTC(2025, 0, 1);
  const builder = new TraceBuilder({ runId: 'run-1', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'openai', model: 'qwen3:1.7b', request: 'find a mug', startedAt });
  for (const [index, event] of events.entries()) builder.apply(event, startedAt + index);
  builder.end('answer', startedAt + events.length);
  const trace = { run: builder.takeChanges().run!, steps: builder.steps() };
  expect(storedTraceSchema().safeParse(trace).success).toBe(true);
  return trace.steps;
}

function opened(step: TraceStep): HTMLElement {
  const root = document.createElement('div');
  render(<StepView step={step} divergences={[]} open />, root);
  return root;
}

describe('thoughts a server sends apart from the reply', () => {
  it('are kept with their step for the trace, and its viewer shows them, but never read back to the model', async () => {
    const { result, events } = await run(
      thinkingModel([
        [
          { type: 'thinking', text: 'The person wants a mug. ' },
          { type: 'thinking', text: 'I will search.' },
          { type: 'text-delta', text: call },
        ],
        [{ type: 'text-delta', text: 'The enamel mug.' }],
      ]),
    );
    expect(result).toMatchObject({ finishReason: 'answer', text: 'The enamel mug.' });
    const stepEnds = events.filter((event) => event.type === 'step-end');
    expect(stepEnds[0]).toMatchObject({ raw: call, thoughts: 'The person wants a mug. I will search.' });
    expect(stepEnds[1]).not.toHaveProperty('thoughts');
    // The next prompt holds the reply as the model wrote it, without its thoughts.
    const secondPrompt = events.filter((event) => event.type === 'step-start')[1]!.messages;
    expect(secondPrompt.some((message) => message.content.includes('I will search'))).toBe(false);
    expect(secondPrompt.some((message) => message.role === 'assistant' && message.content === call)).toBe(true);

    const [first, second] = traceSteps(events);
    expect(first!.thoughts).toBe('The person wants a mug. I will search.');
    expect(opened(first!).querySelector('[data-testid="thoughts"]')!.textContent).toBe('The person wants a mug. I will search.');
    expect(opened(second!).querySelector('[data-testid="thoughts"]')).toBeNull();
  });

  it('make a reply with nothing else one that wrote only its thinking, in the trace viewer as in the run', async () => {
    const { result, events } = await run(thinkingModel([[{ type: 'thinking', text: 'Mugs. Which mug? I cannot decide.' }]]));
    expect(result).toMatchObject({ finishReason: 'answer', text: '' });
    const [step] = traceSteps(events);
    const root = opened(step!);
    expect(root.querySelector('[data-testid="step-summary"]')!.textContent).toMatch(/ · no answer$/);
    expect(root.textContent).toContain('No calls at this step, and no answer: the model wrote only its thinking.');
  });

  it('are kept from a step stopped while the model thought, which its viewer says was stopped mid-thought', async () => {
    const stop = new AbortController();
    const { result, events } = await run(thinkingModel([], stop), stop.signal);
    expect(result.finishReason).toBe('aborted');
    // Nothing but thoughts came: each piece counts as a token the model wrote.
    expect(events.find((event) => event.type === 'step-end')).toMatchObject({ raw: '', thoughts: 'Still weighing the mugs', stopped: true, usage: { completionTokens: 1 } });
    const [step] = traceSteps(events);
    const root = opened(step!);
    expect(root.querySelector('[data-testid="thoughts"]')!.textContent).toBe('Still weighing the mugs');
    expect(root.querySelector('[data-testid="cut-off-notice"]')!.textContent).toBe('No reply: the run was stopped while the model was still thinking.');
    expect(root.textContent).toContain('No reply, so no call: the model was still thinking.');
  });
});
