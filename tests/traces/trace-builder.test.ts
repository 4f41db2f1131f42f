import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@webmcp-agents/local-agent';
import { TraceBuilder } from '@/lib/traces/trace-builder';
import { traceStepSchema } from '@/lib/traces/trace-schema';

const startedAt = Date.UTC(2025, 0, 1);

function builderWithTwoCalls() {
  const builder = new TraceBuilder({ runId: 'run-1', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: 'recorded', request: 'mugs', startedAt });
  const events: AgentEvent[] = [
    { type: 'step-start', step: 1, tools: [], messages: [] },
    { type: 'tool-call', step: 1, callId: '1.1', name: 'search_products', arguments: { query: 'mug' } },
    { type: 'tool-call', step: 1, callId: '1.2', name: 'open_product', arguments: { slug: 'enamel-mug' } },
    { type: 'tool-result', step: 1, callId: '1.1', name: 'search_products', output: { text: 'x'.repeat(12_345) }, durationMs: 5 },
    { type: 'tool-result', step: 1, callId: '1.2', name: 'open_product', output: { text: '{"slug":"enamel-mug"}' }, durationMs: 5 },
    { type: 'step-start', step: 2, tools: [], messages: [] },
  ];
  for (const event of events) builder.apply(event, startedAt + 10);
  builder.takeChanges();
  return builder;
}

describe('the trace builder, on how much of a result the model read', () => {
  it('keeps it on the call of the step that made it, and writes that step again though a later one is under way', () => {
    const builder = builderWithTwoCalls();
    builder.apply({ type: 'results-read', step: 1, results: [{ callId: '1.1', characters: 4_000, of: 12_345 }, { callId: '1.2', characters: 21, of: 21 }] }, startedAt + 20);
    const { steps } = builder.takeChanges();
    expect(steps.map((step) => step.step)).toEqual([1]);
    expect(steps[0]!.calls.map((call) => call.read)).toEqual([{ characters: 4_000, of: 12_345 }, undefined]);
  });

  it('ignores a call it does not know and figures no length could have', () => {
    const builder = builderWithTwoCalls();
    const read = (characters: number, of: number, callId = '1.1'): AgentEvent => ({ type: 'results-read', step: 1, results: [{ callId, characters, of }] });
    for (const event of [read(10, 20, '9.9'), read(-1, 20), read(1.5, 20), read(Number.NaN, 20), read(30, 20)]) builder.apply(event, startedAt + 20);
    expect(builder.steps()[0]!.calls.map((call) => call.read)).toEqual([undefined, undefined]);
  });
});

describe('the trace builder, on the tools the model was not shown', () => {
  const builder = () => new TraceBuilder({ runId: 'run-1', tabId: 1, url: 'https://dev.example/', origin: 'https://dev.example', engineId: 'replay', model: 'recorded', request: 'book a table', startedAt });

  it('keeps how many tools the page offered and the best scored of those not shown', () => {
    const traced = builder();
    const notShown = [{ name: 'throws_error', score: 1.5 }, { name: 'returns_nothing', score: 0 }];
    traced.apply({ type: 'step-start', step: 1, tools: [], messages: [], offeredCount: 14, notShownCount: 6, notShown }, startedAt + 10);
    expect(traced.steps()[0]).toMatchObject({ offeredCount: 14, notShownCount: 6, notShown });
  });

  it('cuts a page\'s long tool name and a score no number can show, as it does for the tools shown', () => {
    const traced = builder();
    traced.apply({ type: 'step-start', step: 1, tools: [], messages: [], offeredCount: 9, notShownCount: 1, notShown: [{ name: 'x'.repeat(5_000), score: Number.NaN }] }, startedAt + 10);
    const [kept] = traced.steps()[0]!.notShown!;
    expect(kept!.name.length).toBeLessThanOrEqual(1_000);
    expect(kept!.name).toContain('(cut: ');
    expect(kept!.score).toBe(0);
  });

  it('records a step without them as traces did before they were kept', () => {
    const traced = builder();
    traced.apply({ type: 'step-start', step: 1, tools: [], messages: [] }, startedAt + 10);
    const [step] = traced.steps();
    expect(step).not.toHaveProperty('offeredCount');
    expect(step).not.toHaveProperty('notShown');
    // Such a stored step is still read.
    expect(traceStepSchema().safeParse(step).success).toBe(true);
  });
});

describe('the trace builder, on the prose of a step', () => {
  it('keeps the prose the person was left seeing: the parse\'s, where it took back what streamed', () => {
    const builder = new TraceBuilder({ runId: 'run-1', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: 'recorded', request: 'mugs', startedAt });
    const events: AgentEvent[] = [
      { type: 'step-start', step: 1, tools: [], messages: [] },
      { type: 'prose-delta', step: 1, text: 'The user wants mugs.' },
      { type: 'prose-delta', step: 1, text: 'There are four mugs.' },
      { type: 'prose-replace', step: 1, text: 'There are four mugs.' },
    ];
    for (const event of events) builder.apply(event, startedAt + 10);
    expect(builder.steps()[0]!.prose).toBe('There are four mugs.');
  });
});

describe('the trace builder, on the address of the page', () => {
  const runOn = (url: string) => new TraceBuilder({ runId: 'run-1', tabId: 1, url, origin: 'https://shop.example', engineId: 'replay', model: 'recorded', request: 'mugs', startedAt }).takeChanges().run!;

  it('keeps the site and the path, never the query string, the fragment or a password in the address', () => {
    expect(runOn('https://ann:hunter2@shop.example/reset/password?code=12345&email=ann%40example.com#access_token=abc').url).toBe('https://shop.example/reset/password');
    expect(runOn('https://shop.example/search?q=divorce+lawyer').url).toBe('https://shop.example/search');
    expect(runOn('https://shop.example/#/account?session=abc').url).toBe('https://shop.example/');
    expect(runOn('http://localhost:8080/app/').url).toBe('http://localhost:8080/app/');
  });

  it('cuts text that is no address at its first ? or #, and keeps an empty one empty', () => {
    expect(runOn('not an address?token=abc').url).toBe('not an address');
    expect(runOn('').url).toBe('');
  });
});

describe('the trace builder, on the questions put to the person', () => {
  it('keeps why a call ran without an answer, so the trace does not say the person allowed it', () => {
    const builder = new TraceBuilder({ runId: 'run-1', tabId: 2, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: 'recorded', request: 'buy', startedAt });
    const because = 'the site was allowed while this question waited (in another tab, or in the options)';
    builder.apply({ type: 'step-start', step: 1, tools: [], messages: [] }, startedAt + 10);
    builder.apply({ type: 'tool-call', step: 1, callId: '1.1', name: 'add_to_cart', arguments: {} }, startedAt + 20);
    builder.apply({ type: 'tool-approval-request', step: 1, callId: '1.1', name: 'add_to_cart', reason: 'not-read-only' }, startedAt + 30);
    builder.apply({ type: 'tool-approval-response', step: 1, callId: '1.1', approved: true, allowedBecause: because }, startedAt + 707);
    const [step] = builder.steps();
    expect(step!.calls[0]!.approval).toEqual({ askedAt: startedAt + 30, answeredAt: startedAt + 707, approved: true, allowedBecause: because });
    expect(traceStepSchema().safeParse(step).success).toBe(true);
  });
});
