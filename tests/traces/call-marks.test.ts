import { describe, expect, it } from 'vitest';
import { callMarksOf } from '@/lib/traces/call-marks';
import type { TraceCall, TraceProblem } from '@/lib/traces/trace-schema';

const ran = (isError?: boolean): TraceCall => ({
  callId: '1.1',
  name: 'search_products',
  arguments: {},
  calledAt: 1,
  result: { text: isError ? 'It broke.' : '[]', length: 2, durationMs: 5, endedAt: 6, ...(isError ? { isError } : {}) },
});
const problem = (kind: TraceProblem['kind'], withdrawn?: boolean): TraceProblem => ({ kind, message: 'm', ...(withdrawn ? { withdrawn } : {}) });

describe('callMarksOf', () => {
  it('marks a run whose tool failed, whose call the person declined, or whose call the model got wrong, in that order', () => {
    expect(callMarksOf([{ calls: [ran()], problems: [] }])).toEqual([]);
    expect(callMarksOf([{ calls: [ran(true)], problems: [] }])).toEqual(['failed']);
    expect(callMarksOf([{ calls: [], problems: [problem('invalid-arguments')] }, { calls: [], problems: [problem('declined')] }, { calls: [ran(true)], problems: [] }])).toEqual(['failed', 'declined', 'refused']);
    for (const kind of ['parse', 'unknown-tool', 'repeated', 'duplicate'] as const) expect(callMarksOf([{ calls: [], problems: [problem(kind)] }]), kind).toEqual(['refused']);
  });

  it('does not blame the model for a call whose tool the page changed or removed after the step showed it', () => {
    expect(callMarksOf([{ calls: [], problems: [problem('unknown-tool', true)] }])).toEqual([]);
  });
});
