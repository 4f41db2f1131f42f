import { describe, expect, it } from 'vitest';
import { createTraceFile, readTraceFile } from '@/lib/traces/trace-file';
import type { StoredTrace } from '@/lib/traces/trace-schema';

const trace = (id: string, steps: number[] = [1]): StoredTrace => ({
  run: { id, tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'replay', model: '', request: 'x', startedAt: 1, stepCount: steps.length, sizeBytes: 10, updatedAt: 1, outcome: 'answer', endedAt: 2 },
  steps: steps.map((step) => ({ runId: id, step, startedAt: 1, tools: [], messages: [], raw: 'hi', complete: true, prose: 'hi', calls: [], problems: [], usage: {} })),
});

describe('readTraceFile', () => {
  it('reads back what createTraceFile wrote, as text or as parsed JSON', () => {
    const file = createTraceFile([trace('a'), trace('b', [1, 2])], 5);
    expect(readTraceFile(JSON.stringify(file))).toEqual({ ok: true, traces: file.runs });
    expect(readTraceFile(file)).toEqual({ ok: true, traces: file.runs });
  });

  it('says what is wrong with a bad file, never throwing', () => {
    expect(readTraceFile('{')).toMatchObject({ ok: false, message: expect.stringMatching(/^This file is not JSON \(/) });
    expect(readTraceFile(null)).toMatchObject({ ok: false, message: expect.stringContaining('not a trace file') });
    expect(readTraceFile([1, 2])).toMatchObject({ ok: false });
    expect(readTraceFile({ ...createTraceFile([]), version: 2 })).toEqual({ ok: false, message: 'The trace file is damaged: version: Invalid input: expected 1.' });
    expect(readTraceFile(createTraceFile([trace('a'), trace('a')]))).toEqual({ ok: false, message: 'The trace file is damaged: runs[1]: the run a appears twice.' });
    const stray = trace('a');
    stray.steps[0]!.runId = 'b';
    expect(readTraceFile(createTraceFile([stray]))).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].steps[0]: the step belongs to another run.' });
    expect(readTraceFile(createTraceFile([trace('a', [1, 1])]))).toMatchObject({ ok: false, message: expect.stringContaining('step 1 appears twice') });
  });
});
