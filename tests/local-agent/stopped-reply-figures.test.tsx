// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, type AgentEvent, type LanguageModel, type ModelChunk } from '@webmcp-agents/local-agent';
import { StepView } from '@/components/traces/step-view';
import { TraceBuilder } from '@/lib/traces/trace-builder';
import { storedTraceSchema } from '@/lib/traces/trace-schema';

const search: ToolDescriptor = {
  name: 'search_products',
  description: 'Search the catalogue by a key word.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
const pieces = ['Mugs ', 'are ', 'made ', 'of '];

/** An engine that streams four pieces without figures, then fails (a GPU lost, a server gone) or waits until it is stopped. */
function modelThen(end: 'fails' | 'waits', stop: AbortController): LanguageModel {
  return {
    async *stream({ signal }): AsyncGenerator<ModelChunk> {
      for (const text of pieces) yield { type: 'text-delta', text };
      if (end === 'fails') throw Object.assign(new Error('The GPU was lost.'), { name: 'EngineError', code: 'unavailable' });
      stop.abort();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
}

async function run(end: 'fails' | 'waits') {
  const events: AgentEvent[] = [];
  const stop = new AbortController();
  const result = await runLocalAgent({
    request: 'find a mug',
    model: modelThen(end, stop),
    format: hermesFormat,
    contextTokens: 4_096,
    getTools: () => [search],
    executeTool: async () => ({ text: 'enamel-mug' }),
    onEvent: (event) => void events.push(event),
    signal: stop.signal,
  });
  return { result, events, stepEnds: events.filter((event) => event.type === 'step-end') };
}

function traceStep(events: AgentEvent[]) {
  const startedAt = Date.UTC(2025, 0, 1);
  const builder = new TraceBuilder({ runId: 'run-1', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'webllm', model: 'qwen', request: 'mug', startedAt });
  for (const [index, event] of events.entries()) builder.apply(event, startedAt + index);
  builder.end('stopped', startedAt + events.length);
  const trace = { run: builder.takeChanges().run!, steps: builder.steps() };
  expect(storedTraceSchema().safeParse(trace).success).toBe(true);
  return trace.steps[0]!;
}

describe('the figures of a reply that ended before the engine gave any', () => {
  it('count the pieces streamed as its tokens where the engine failed mid-way', async () => {
    const { result, stepEnds } = await run('fails');
    expect(result.finishReason).toBe('error');
    expect(stepEnds).toEqual([{ type: 'step-end', step: 1, raw: pieces.join(''), usage: { completionTokens: 4 }, modelMs: expect.any(Number), failed: true }]);
  });

  it('end a stopped step, marked stopped, with its time and the pieces streamed, which the trace keeps and its viewer says', async () => {
    const { result, events, stepEnds } = await run('waits');
    expect(result.finishReason).toBe('aborted');
    expect(stepEnds).toEqual([{ type: 'step-end', step: 1, raw: pieces.join(''), usage: { completionTokens: 4 }, modelMs: expect.any(Number), stopped: true }]);

    const step = traceStep(events);
    expect(step).toMatchObject({ stopped: true, complete: false, raw: pieces.join(''), usage: { completionTokens: 4 }, modelMs: expect.any(Number) });
    const root = document.createElement('div');
    render(<StepView step={step} divergences={[]} />, root);
    expect(root.querySelector('[data-testid="step-summary"]')!.textContent).toMatch(/^Step 1 · model .+ · stopped$/);
    expect(root.querySelector('[data-testid="step-usage"]')!.textContent).toContain('4 tokens out');
  });
});
