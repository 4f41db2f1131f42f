import { describe, expect, it } from 'vitest';
import { layoutTimeline } from '@/lib/traces/timeline-layout';
import type { TraceRun, TraceStep } from '@/lib/traces/trace-schema';

const run: TraceRun = {
  id: 'r', tabId: 1, url: '', origin: '', engineId: 'webllm', model: 'm', request: 'x',
  startedAt: 10_000, endedAt: 16_000, outcome: 'answer', stepCount: 2, sizeBytes: 0, updatedAt: 16_000,
};

function step(number: number, fields: Partial<TraceStep>): TraceStep {
  return { runId: 'r', step: number, startedAt: 0, tools: [], messages: [], raw: '', complete: true, prose: '', calls: [], problems: [], usage: {}, ...fields };
}

describe('layoutTimeline', () => {
  it('places model time, the wait for the person and tool time where they fell, and sums them', () => {
    const steps = [
      step(1, {
        startedAt: 10_100,
        modelMs: 2_000,
        usage: { promptTokens: 300, completionTokens: 40 },
        calls: [
          {
            callId: '1.1', name: 'add_to_cart', arguments: {}, calledAt: 12_100,
            approval: { askedAt: 12_100, answeredAt: 13_600, approved: true },
            result: { text: '{}', length: 2, durationMs: 400, endedAt: 14_000 },
          },
          // Allowed by a rule at once: no wait is drawn for it.
          { callId: '1.2', name: 'view_cart', arguments: {}, calledAt: 14_000, approval: { askedAt: 14_000, answeredAt: 14_002, approved: true } },
        ],
      }),
      step(2, { startedAt: 14_100, modelMs: 1_500, usage: { promptTokens: 50, completionTokens: 20 } }),
    ];
    const layout = layoutTimeline({ run, steps });
    expect(layout.steps).toEqual([1, 2]);
    expect(layout.bars).toEqual([
      { kind: 'between', step: 1, startMs: 0, durationMs: 100, label: 'before the first reply: the model loading, the page’s tools read' },
      { kind: 'model', step: 1, startMs: 100, durationMs: 2_000, label: 'model: 40 tokens' },
      { kind: 'wait', step: 1, startMs: 2_100, durationMs: 1_500, label: 'waiting for the person: add_to_cart' },
      { kind: 'tool', step: 1, startMs: 3_600, durationMs: 400, label: 'add_to_cart' },
      { kind: 'between', step: 2, startMs: 4_000, durationMs: 100, label: 'before the reply: the page settling after the calls, the prompt built' },
      { kind: 'model', step: 2, startMs: 4_100, durationMs: 1_500, label: 'model: 20 tokens' },
    ]);
    expect(layout.totals).toEqual({ modelMs: 3_500, toolMs: 400, waitMs: 1_500, betweenMs: 200, wallMs: 6_000, promptTokens: 350, completionTokens: 60 });
  });

  it('gives a step cut off mid-reply the time until the run’s last record', () => {
    const interrupted = { ...run, endedAt: 13_000, outcome: 'interrupted' as const };
    const layout = layoutTimeline({ run: interrupted, steps: [step(1, { startedAt: 11_000, complete: false })] });
    expect(layout.bars.filter((bar) => bar.kind === 'model')).toEqual([{ kind: 'model', step: 1, startMs: 1_000, durationMs: 2_000, label: 'model' }]);
    expect(layout.totals).toMatchObject({ promptTokens: undefined, completionTokens: undefined });
  });

  it('draws the time before each reply, so that the parts add up to the run: the model loading first, the page settling after calls', () => {
    // A model loaded for 40 s before the first reply; the page took 300 ms to settle after the call.
    const steps = [
      step(1, {
        startedAt: 50_000,
        modelMs: 1_000,
        calls: [{ callId: '1.1', name: 'add_note', arguments: {}, calledAt: 51_000, result: { text: 'ok', length: 2, durationMs: 20, endedAt: 51_020 } }],
      }),
      // A prompt built at once after no call is no part of its own; one fitted again after a refusal is.
      step(2, { startedAt: 51_320, modelMs: 500 }),
      step(3, { startedAt: 51_840, modelMs: 500 }),
      step(4, { startedAt: 52_440, modelMs: 100 }),
    ];
    const layout = layoutTimeline({ run: { ...run, startedAt: 10_000, endedAt: 52_540 }, steps });
    expect(layout.bars.filter((bar) => bar.kind === 'between').map(({ step: number, startMs, durationMs, label }) => [number, startMs, durationMs, label])).toEqual([
      [1, 0, 40_000, 'before the first reply: the model loading, the page’s tools read'],
      [2, 41_020, 300, 'before the reply: the page settling after the calls, the prompt built'],
      [4, 42_340, 100, 'before the reply: the prompt built'],
    ]);
    const { modelMs, toolMs, waitMs, betweenMs, wallMs } = layout.totals;
    expect(betweenMs).toBe(40_400);
    expect(wallMs - (modelMs + toolMs + waitMs + betweenMs)).toBe(20);
  });

  it('counts a wait no one answered until the run ended, and draws it as one that got no answer', () => {
    // The person never answered: five minutes later the run ended as a tool timeout.
    const timedOut = { ...run, endedAt: 312_000, updatedAt: 312_000, outcome: 'tool-timeout' as const };
    const steps = [
      step(1, {
        startedAt: 10_000,
        modelMs: 2_000,
        calls: [{ callId: '1.1', name: 'buy', arguments: {}, calledAt: 12_000, approval: { askedAt: 12_000 } }],
      }),
    ];
    const layout = layoutTimeline({ run: timedOut, steps });
    expect(layout.bars).toContainEqual({ kind: 'wait', step: 1, startMs: 2_000, durationMs: 300_000, label: 'waiting for the person: buy (no answer came)' });
    expect(layout.totals).toMatchObject({ modelMs: 2_000, waitMs: 300_000, wallMs: 302_000 });
  });

  it('ends the wait of a question the page withdrew when it did, and says why', () => {
    const steps = [
      step(1, {
        startedAt: 10_000,
        modelMs: 2_000,
        calls: [{ callId: '1.1', name: 'buy', arguments: {}, calledAt: 12_000, approval: { askedAt: 12_000, answeredAt: 15_000, approved: false, withdrawn: true } }],
      }),
    ];
    const layout = layoutTimeline({ run, steps });
    expect(layout.bars).toContainEqual({ kind: 'wait', step: 1, startMs: 2_000, durationMs: 3_000, label: 'waiting for the person: buy (the page changed or removed the tool)' });
    // It never ran: no tool bar.
    expect(layout.bars.filter((bar) => bar.kind === 'tool')).toEqual([]);
  });

  it('counts a tool that never answered until the run ended, and says it got no answer', () => {
    // Allowed at 13 s, the tool hung; the tool timeout ended the run at 16 s.
    const timedOut = { ...run, outcome: 'tool-timeout' as const };
    const steps = [
      step(1, {
        startedAt: 10_000,
        modelMs: 2_000,
        calls: [
          { callId: '1.1', name: 'publish', arguments: {}, calledAt: 12_000, approval: { askedAt: 12_000, answeredAt: 13_000, approved: true } },
          // Refused by the argument check, and one the person declined: neither ran.
          { callId: '1.2', name: 'publish', arguments: { x: 1 }, calledAt: 12_000 },
          { callId: '1.3', name: 'delete', arguments: {}, calledAt: 12_000, approval: { askedAt: 12_000, answeredAt: 12_500, approved: false } },
        ],
        problems: [{ callId: '1.2', name: 'publish', kind: 'invalid-arguments', message: 'bad' }],
      }),
    ];
    const layout = layoutTimeline({ run: timedOut, steps });
    expect(layout.bars.filter((bar) => bar.kind === 'tool')).toEqual([{ kind: 'tool', step: 1, startMs: 3_000, durationMs: 3_000, label: 'publish (no answer came)' }]);
    expect(layout.totals).toMatchObject({ toolMs: 3_000 });
  });

  it('lays out a step of 200,000 calls without overflowing the stack', () => {
    const calls = Array.from({ length: 200_000 }, (_, index) => ({
      callId: `1.${index}`, name: 'a', arguments: {}, calledAt: 11_000, result: { text: '', length: 0, durationMs: 1, endedAt: 11_000 + index / 100 },
    }));
    const layout = layoutTimeline({ run, steps: [step(1, { startedAt: 10_000, modelMs: 500, calls })] });
    expect(layout.bars).toHaveLength(200_001);
    expect(layout.totals.wallMs).toBe(6_000);
  });
});
