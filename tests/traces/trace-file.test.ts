import { describe, expect, it } from 'vitest';
import { createTraceFile, readTraceFile } from '@/lib/traces/trace-file';
import type { StoredTrace } from '@/lib/traces/trace-schema';

/** A time a recorder could have written: runs are dated between 2020 and now. */
const at = Date.UTC(2025, 4, 1);

const trace = (id: string, steps: number[] = [1]): StoredTrace => ({
  run: { id, tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'replay', model: '', request: 'x', startedAt: at, stepCount: steps.length, sizeBytes: 10, updatedAt: at + 1, outcome: 'answer', endedAt: at + 2 },
  steps: steps.map((step) => ({ runId: id, step, startedAt: at + 1, tools: [], messages: [], raw: 'hi', complete: true, prose: 'hi', calls: [], problems: [], usage: {} })),
});

describe('readTraceFile', () => {
  it('reads back what createTraceFile wrote, as text or as parsed JSON', async () => {
    const file = createTraceFile([trace('a'), trace('b', [1, 2])], at + 5);
    expect(await readTraceFile(JSON.stringify(file))).toEqual({ ok: true, traces: file.runs });
    expect(await readTraceFile(file)).toEqual({ ok: true, traces: file.runs });
  });

  it('lets other work in between its runs, as it checks them and as it checks them against each other', async () => {
    const file = createTraceFile([trace('a'), trace('b', [1, 2]), trace('c')], at + 5);
    let slices = 0;
    expect(await readTraceFile(JSON.stringify(file), Date.now(), async () => void (slices += 1))).toEqual({ ok: true, traces: file.runs });
    expect(slices).toBe(6);
  });

  it('lists what is wrong with the file\'s fields and with its runs together, the runs after', async () => {
    const file = { ...createTraceFile([trace('a')], at + 5), exportedAt: 'soon', runs: [{ run: { id: 5 } }] };
    expect(await readTraceFile(JSON.stringify(file))).toMatchObject({ ok: false, message: expect.stringMatching(/^The trace file is damaged: exportedAt: not a number; runs\[0\]\.run\.id: not a string; runs\[0\]\.run\.\w+: missing \(and \d+ more problems\)\.$/) });
  });

  it('keeps the tools the turn before called, which a replay ranks with, and reads a run from before they were kept', async () => {
    const followUp = trace('c');
    followUp.run.recentTools = ['apply_coupon', 'get_cart'];
    const file = createTraceFile([trace('a'), followUp], at + 5);
    const read = await readTraceFile(JSON.parse(JSON.stringify(file)));
    expect(read).toEqual({ ok: true, traces: file.runs });
    expect(read.ok && read.traces.map(({ run }) => run.recentTools)).toEqual([undefined, ['apply_coupon', 'get_cart']]);
  });

  it('reads a call with a result from before the trace kept how much the model read, and one that keeps it', async () => {
    const withCalls = trace('a');
    const result = { text: 'mug '.repeat(50), length: 200, durationMs: 3, endedAt: at + 2 };
    withCalls.steps[0]!.calls = [
      { callId: '1.1', name: 'search', arguments: {}, calledAt: at + 1, result },
      { callId: '1.2', name: 'search', arguments: {}, calledAt: at + 1, result, read: { characters: 120, of: 200 } },
    ];
    expect(await readTraceFile(JSON.stringify(createTraceFile([withCalls], at + 5)))).toEqual({ ok: true, traces: [withCalls] });
    expect(await readTraceFile(JSON.stringify(createTraceFile([{ ...withCalls, steps: [{ ...withCalls.steps[0]!, calls: [{ ...withCalls.steps[0]!.calls[1]!, read: { characters: -1, of: 200 } }] }] }])))).toMatchObject({
      ok: false,
      message: expect.stringContaining('runs[0].steps[0].calls[0].read.characters'),
    });
  });

  it('says in plain words what a field of a bad file is, not in the schema checker\'s', async () => {
    const long = trace('a');
    long.run.request = 'x'.repeat(300_000);
    expect(await readTraceFile(createTraceFile([long], at + 5))).toMatchObject({ ok: false, message: expect.stringMatching(/^The trace file is damaged: runs\[0\]\.run\.request: longer than [\d,]+ characters\.$/) });
    const { id: _id, ...withoutId } = trace('b').run;
    expect(await readTraceFile({ ...createTraceFile([], at + 5), runs: [{ run: withoutId, steps: [] }] })).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].run.id: missing.' });
    const counted = trace('c');
    (counted.run as { stepCount: unknown }).stepCount = 'one';
    expect(await readTraceFile(createTraceFile([counted], at + 5))).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].run.stepCount: not a number.' });
  });

  it('says an empty file is empty, not that it is no JSON', async () => {
    for (const text of ['', '  \n']) expect(await readTraceFile(text)).toEqual({ ok: false, message: 'This file is empty: it holds no runs.' });
  });

  it('names an outcome it does not know as the file writes it, and those it takes with the names the viewer shows', async () => {
    const edited = trace('a');
    (edited.run as { outcome: unknown }).outcome = 'running';
    expect(await readTraceFile(createTraceFile([edited], at + 5))).toEqual({
      ok: false,
      message:
        'The trace file is damaged: runs[0].run.outcome: "running" is not one of "answer" (Answered), "stopped" (Stopped), "interrupted" (Interrupted), ' +
        '"max-steps" (Too many steps), "repeated-call" (Repeated call), "tool-timeout" (Tool timed out), "no-answer" (Nobody answered), "navigated" (Page changed), "error" (Error).',
    });
    // A long one is named by its start.
    (edited.run as { outcome: unknown }).outcome = 'x'.repeat(1_000_000);
    const long = await readTraceFile(createTraceFile([edited], at + 5));
    expect(long.ok === false && long.message).toMatch(/^The trace file is damaged: runs\[0\]\.run\.outcome: "x{39}…" is not one of "answer" \(Answered\),/);
  });

  it('says what is wrong with a bad file, never throwing', async () => {
    const exportWrites = " A trace file is the .json file the viewer's Export writes.";
    // In words of where the JSON breaks, not the parser's (which quote the file).
    expect(await readTraceFile('{')).toEqual({ ok: false, message: `This file is not a trace file: its JSON ends too soon, as if the file were cut short.${exportWrites}` });
    expect(await readTraceFile('{"runs": [\n  {"a": 1,}\n]}')).toEqual({ ok: false, message: `This file is not a trace file: its JSON is damaged at line 2, column 11.${exportWrites}` });
    expect(await readTraceFile('{"runs": [1, 2\n')).toEqual({ ok: false, message: `This file is not a trace file: its JSON ends too soon, as if the file were cut short.${exportWrites}` });
    expect(await readTraceFile('Dear team, the runs are attached.')).toEqual({ ok: false, message: `This file is not a trace file: it is not JSON.${exportWrites}` });
    // A trailing comma, which the parser names by the character after it, in a short and a long file.
    expect(await readTraceFile('[1, 2,]')).toEqual({ ok: false, message: `This file is not a trace file: its JSON is damaged at line 1, column 7.${exportWrites}` });
    const long = `{"runs": [\n${Array.from({ length: 40 }, (_, index) => `  ${index},`).join('\n')}\n]}`;
    expect(await readTraceFile(long)).toEqual({ ok: false, message: `This file is not a trace file: its JSON is damaged at line 42, column 1.${exportWrites}` });
    // A stray character found where the parser quotes it, though the file repeats itself around it.
    const repeated = `{"runs": [\n${Array.from({ length: 40 }, () => '  "same same same",').join('\n')}\n  "same same same",,\n  "same same same"\n]}`;
    expect(await readTraceFile(repeated)).toEqual({ ok: false, message: `This file is not a trace file: its JSON is damaged at line 42, column 20.${exportWrites}` });
    // One whose quoted neighbourhood a string before it holds too is named without a place, not at the string.
    const echoed = `{"note": "x 1, 2, 3, 4, 5,, 6, 7, 8, 9 x", "runs": [1, 2, 3, 4, 5,, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}`;
    expect(await readTraceFile(echoed)).toEqual({ ok: false, message: `This file is not a trace file: its JSON is damaged.${exportWrites}` });
    // Lines counted as an editor counts them, whatever ends them.
    expect(await readTraceFile('{"runs": [\r  {"a": 1,}\r]}')).toEqual({ ok: false, message: `This file is not a trace file: its JSON is damaged at line 2, column 11.${exportWrites}` });
    expect(await readTraceFile(null)).toMatchObject({ ok: false, message: expect.stringContaining('not a trace file') });
    // An image's bytes, as the viewer reads a file's text (what is not UTF-8 becomes U+FFFD): not quoted.
    const png = new TextDecoder().decode(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    expect(await readTraceFile(png)).toEqual({ ok: false, message: "This file is not a trace file: it is not text. A trace file is the .json file the viewer's Export writes." });
    // Text with tabs and line breaks, and a Unicode request, is read as JSON.
    expect(await readTraceFile(`{\r\n\t"format": "other", "note": "é 日本"}`)).toMatchObject({ ok: false, message: expect.stringContaining('not a trace file') });
    // A run whose request holds U+FFFD (a broken emoji pasted, a model's cut UTF-8) exports as it is and comes back.
    const replaced = trace('a');
    replaced.run.request = 'find \ufffd mugs';
    expect(await readTraceFile(JSON.stringify(createTraceFile([replaced])))).toMatchObject({ ok: true, traces: [{ run: { request: 'find \ufffd mugs' } }] });
    expect(await readTraceFile([1, 2])).toMatchObject({ ok: false });
    expect(await readTraceFile({ ...createTraceFile([]), version: 2 })).toEqual({
      ok: false,
      message: 'This trace file comes from a newer version of the extension (its format is version 2; this one reads version 1). Update the extension, or export the runs again from this version.',
    });
    // No version before 1, nor a version written as text: a file edited by hand, not one to update for.
    for (const version of [0, '1', undefined]) {
      expect(await readTraceFile({ ...createTraceFile([]), version })).toEqual({
        ok: false,
        message: 'This trace file names no format version this extension wrote (it should say "version": 1): it was edited by hand, or written by another program.',
      });
    }
    expect(await readTraceFile(createTraceFile([trace('a'), trace('a')]))).toEqual({ ok: false, message: 'The trace file is damaged: runs[1]: the run a appears twice.' });
    const stray = trace('a');
    stray.steps[0]!.runId = 'b';
    expect(await readTraceFile(createTraceFile([stray]))).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].steps[0]: the step belongs to another run.' });
    expect(await readTraceFile(createTraceFile([trace('a', [1, 1])]))).toMatchObject({ ok: false, message: expect.stringContaining('step 1 appears twice') });
  });
});

describe('readTraceFile, on a file no recorder could have written', () => {
  const now = Date.UTC(2026, 0, 1);
  const read = (change: (trace: StoredTrace) => void) => {
    const odd = trace('a', [1]);
    change(odd);
    return readTraceFile(JSON.stringify(createTraceFile([odd], at)), now);
  };
  const call = (index: number) => ({ callId: `1.${index}`, name: 'search', arguments: {}, calledAt: at + 1 });

  it('refuses a run that ends before it starts, or whose steps are out of order, saying where', async () => {
    expect(await read((odd) => (odd.run.endedAt = at - 1))).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].run.endedAt: the run ends before it starts.' });
    const twoSteps = trace('a', [7, 2]);
    expect(await readTraceFile(JSON.stringify(createTraceFile([twoSteps], at)), now)).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].steps[1]: step 2 comes after step 7.',
    });
  });

  it('refuses a run with a step taken out, which would claim it and give its time to the next step', async () => {
    expect(await readTraceFile(JSON.stringify(createTraceFile([trace('a', [1, 3])], at)), now)).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].steps[1]: step 2 is missing (the run goes on with step 3).',
    });
    expect(await readTraceFile(JSON.stringify(createTraceFile([trace('a', [2, 3])], at)), now)).toMatchObject({ ok: false, message: expect.stringContaining('runs[0].steps[0]: step 1 is missing (the run goes on with step 2).') });
    expect(await readTraceFile(JSON.stringify(createTraceFile([trace('a', [1, 2, 3]), trace('b', [])], at)), now)).toMatchObject({ ok: true });
  });

  it('refuses times before 2020, in the future, or past what a date can show, saying where', async () => {
    expect(await read((odd) => (odd.run.startedAt = 1e300))).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].run.startedAt: not a date.' });
    expect(await read((odd) => (odd.run.startedAt = Date.UTC(2300, 0, 1)))).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].run.startedAt: 2300-01-01T00:00:00.000Z is in the future.',
    });
    expect(await read((odd) => (odd.steps[0]!.startedAt = 60_000))).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].steps[0].startedAt: 1970-01-01T00:01:00.000Z is before 2020, when no run was recorded.',
    });
    expect(await read((odd) => (odd.steps[0]!.calls = [{ ...call(1), approval: { askedAt: at + 1, answeredAt: now + 2 * 86_400_000 } }]))).toMatchObject({
      ok: false,
      message: expect.stringContaining('runs[0].steps[0].calls[0].approval.answeredAt: 2026-01-03T00:00:00.000Z is in the future.'),
    });
    // A clock a few hours ahead of this one is still believed.
    expect(await read((odd) => (odd.run.updatedAt = now + 3_600_000))).toMatchObject({ ok: true });
  });

  it('refuses more steps, tools or calls than a recorder writes, and arguments nested too deeply, saying which', async () => {
    expect(await read((odd) => (odd.steps[0]!.calls = Array.from({ length: 201 }, (_, index) => call(index))))).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].steps[0].calls: a step holds at most 200 calls.',
    });
    const tool = { name: 't', description: '', parameters: {}, score: 1 };
    expect(await read((odd) => (odd.steps[0]!.tools = Array(101).fill(tool)))).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].steps[0].tools: a step holds at most 100 tools.',
    });
    const many = trace('a', Array.from({ length: 101 }, (_, index) => index + 1));
    expect(await readTraceFile(createTraceFile([many], at), now)).toMatchObject({
      ok: false,
      message: expect.stringContaining('runs[0].steps: a run holds at most 100 steps'),
    });
    // Nested 5,000 deep (more than JSON.stringify can write back): read without a stack overflow, and refused in words.
    const odd = trace('a', [1]);
    odd.steps[0]!.calls = [{ ...call(1), arguments: { deep: 'here' } }];
    const deep = `${'{"a":'.repeat(5_000)}{}${'}'.repeat(5_000)}`;
    const text = JSON.stringify(createTraceFile([odd], at)).replace('{"deep":"here"}', deep);
    expect(await readTraceFile(text, now)).toEqual({
      ok: false,
      message: 'The trace file is damaged: runs[0].steps[0].calls[0].arguments: it is nested more than 128 levels deep.',
    });
  });
});
