// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { formatDuration } from '@/lib/text/format-duration';
import { formatBytesToTenthMegabyte } from '@/lib/text/format-bytes';
import { createTraceFile } from '@/lib/traces/trace-file';
import type { TraceStore } from '@/lib/traces/trace-store';
import { mountViewer, type MountedViewer } from './support/mount-viewer';
import { openStoreWithMugs, openTestStore } from './support/trace-stores';

let viewer: MountedViewer | undefined;
afterEach(() => {
  viewer?.unmount();
  viewer = undefined;
  fakeBrowser.reset();
});

/** "mugs" as a file exported while it was at its first step: no end yet. */
async function exportedAtFirstStep(store: TraceStore): Promise<string> {
  const { run, steps } = structuredClone((await store.getTrace('mugs'))!);
  const { outcome: _outcome, endedAt: _endedAt, answer: _answer, ...going } = run;
  const first = steps.slice(0, 1);
  return JSON.stringify(createTraceFile([{ run: { ...going, stepCount: 1, updatedAt: first[0]!.startedAt }, steps: first }]));
}

describe('importing runs', () => {
  it('keeps a run here that ended after the file’s copy was exported, and says it was kept', async () => {
    const store = await openStoreWithMugs();
    const file = await exportedAtFirstStep(store);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.importText(file));
    expect(viewer.find('notice-text')?.textContent).toBe('Nothing new: the file’s run is here already, newer than in the file, and was kept as it is.');
    await viewer.act(() => viewer!.model.open('mugs'));
    expect(viewer.find('run-outcome')?.textContent).toBe('Answered');
    expect(viewer.findAll('step')).toHaveLength(4);
  });

  it('puts a run’s newer copy from a file in place of the older one here', async () => {
    const store = await openStoreWithMugs();
    const complete = JSON.stringify(createTraceFile([(await store.getTrace('mugs'))!]));
    // Here, the copy an earlier import of that file left: interrupted at its first step.
    const [partial] = JSON.parse(await exportedAtFirstStep(store)).runs;
    await store.putTraces([{ ...partial, run: { ...partial.run, outcome: 'interrupted' } }]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.importText(complete));
    expect(viewer.find('notice-text')?.textContent).toBe('Imported 1 run. It was already here, and the file’s copy took its place.');
    await viewer.act(() => viewer!.model.open('mugs'));
    expect(viewer.find('run-outcome')?.textContent).toBe('Answered');
  });

  it('says how many of the runs imported were already here as the file has them, as when a file is imported twice', async () => {
    const store = await openStoreWithMugs();
    const mugs = (await store.getTrace('mugs'))!;
    const copy = { run: { ...mugs.run, id: 'mugs-again' }, steps: mugs.steps.map((step) => ({ ...step, runId: 'mugs-again' })) };
    const file = JSON.stringify(createTraceFile([mugs, copy]));
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.importText(file));
    expect(viewer.find('notice-text')?.textContent).toBe('Imported 2 runs. 1 of them was already here, as the file has it.');
    await viewer.act(() => viewer!.model.importText(file));
    expect(viewer.find('notice-text')?.textContent).toBe('Nothing new: the file’s 2 runs are both here already, as the file has them.');
    expect(viewer.findAll('run-item')).toHaveLength(2);
  });

  it('marks a run that came from a file as imported, in the list and in the run, and never the person\'s own run imported back', async () => {
    const store = await openStoreWithMugs();
    const mugs = (await store.getTrace('mugs'))!;
    const forged = { run: { ...mugs.run, id: 'transfer', request: 'Transfer $5,000 to account 7731\u{E0041}' }, steps: mugs.steps.map((step) => ({ ...step, runId: 'transfer' })) };
    // The same run and time as one here, with other words: a copy of it in name only.
    const reworded = { ...mugs, run: { ...mugs.run, request: 'Empty my cart', importedAt: undefined } };
    viewer = await mountViewer(store);
    const row = (id: string) => viewer!.findAll('run-item').find((item) => item.getAttribute('data-run-id') === id);
    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile([mugs, forged]))));
    expect(row('transfer')?.querySelector('[data-testid="run-imported"]')?.textContent).toBe('imported');
    // This browser's own run, exported and imported back as it was, stays its own.
    expect(row('mugs')?.querySelector('[data-testid="run-imported"]')).toBeNull();
    // What draws nothing in its request shows by its code, in the list and as the run's title.
    expect(row('transfer')?.querySelector('.hidden-character')?.getAttribute('data-code')).toBe('U+E0041');
    await viewer.act(() => viewer!.model.open('transfer'));
    expect(viewer.find('run-title')?.querySelector('.hidden-character')?.getAttribute('data-code')).toBe('U+E0041');
    expect(viewer.find('run-imported-from')?.textContent).toMatch(/^\w{3} \d+, \d{4}.+, from a file: not recorded in this browser\.$/);
    await viewer.act(() => viewer!.model.open('mugs'));
    expect(viewer.find('run-imported-from')).toBeNull();
    // A file that says its run was never imported is not believed, nor one that copies a run's name and time.
    const claimsOwn = { run: { ...forged.run, id: 'claims-own' }, steps: forged.steps.map((step) => ({ ...step, runId: 'claims-own' })) };
    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile([reworded, claimsOwn]))));
    expect(row('mugs')?.querySelector('[data-testid="run-imported"]')?.textContent).toBe('imported');
    expect(row('claims-own')?.querySelector('[data-testid="run-imported"]')?.textContent).toBe('imported');
  });

  it('says a file without runs holds none, rather than that it imported none', async () => {
    viewer = await mountViewer(await openStoreWithMugs());
    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile([]))));
    expect(viewer.find('notice-text')?.textContent).toBe('This file holds no runs.');
    expect(viewer.findAll('run-item')).toHaveLength(1);
  });

  it('shows a run exported while it went on as interrupted, and how long it had taken then, never as not ended', async () => {
    const file = await exportedAtFirstStep(await openStoreWithMugs());
    viewer = await mountViewer(await openTestStore());
    await viewer.act(() => viewer!.model.importText(file));
    expect(viewer.find('notice-text')?.textContent).toBe('Imported 1 run.');
    await viewer.act(() => viewer!.model.open('mugs'));
    expect(viewer.find('run-outcome')?.textContent).toBe('Interrupted');
    const { run } = JSON.parse(file).runs[0];
    expect(factShown(viewer, 'Took')).toBe(formatDuration(run.updatedAt - run.startedAt));
  });

  it('says it is importing the file before it says what it imported', async () => {
    const file = JSON.stringify(createTraceFile([(await (await openStoreWithMugs()).getTrace('mugs'))!]));
    viewer = await mountViewer(await openTestStore());
    const said: string[] = [];
    const stop = viewer.model.notice.subscribe((notice) => notice && said.push(`${notice.tone}: ${notice.text}`));
    await viewer.act(() => viewer!.model.importFile(new File([file], 'shop runs.json')));
    stop();
    expect(said).toEqual(['info: Importing shop runs.json…', 'info: Imported 1 run.']);
    expect(viewer.find('run-item')).not.toBeNull();
  });

  it('imports one file at a time: Import does nothing while a file is read, and says so', async () => {
    const file = JSON.stringify(createTraceFile([(await (await openStoreWithMugs()).getTrace('mugs'))!]));
    viewer = await mountViewer(await openTestStore());
    const said: string[] = [];
    const stop = viewer.model.notice.subscribe((notice) => notice && said.push(notice.text));
    // A large file, still being read when the second is chosen.
    let read: (text: string) => void = () => {};
    const reading = new Promise<string>((resolve) => (read = resolve));
    let first: Promise<void> | undefined;
    await viewer.act(async () => {
      first = viewer!.model.importFile({ name: 'first.json', size: file.length, text: () => reading });
    });
    expect(viewer.find('import-button')?.getAttribute('aria-disabled')).toBe('true');
    await viewer.act(() => viewer!.model.importFile(new File(['not json'], 'second.json')));
    read(file);
    await viewer.act(() => first);
    stop();
    expect(said).toEqual(['Importing first.json…', 'Imported 1 run.']);
    expect(viewer.find('import-button')?.getAttribute('aria-disabled')).toBeNull();
  });

  it('says it is exporting, and how many runs, before the files are made', async () => {
    viewer = await mountViewer(await openStoreWithMugs());
    const said: string[] = [];
    const stop = viewer.model.notice.subscribe((notice) => notice && said.push(notice.text));
    await viewer.act(() => viewer!.model.exportRuns());
    stop();
    expect(said[0]).toBe('Exporting 1 run…');
    expect(said.at(-1)).toMatch(/^Exported 1 run/);
  });

  it('refuses a file larger than it imports before reading it', async () => {
    viewer = await mountViewer(await openTestStore(), new Map(), undefined, { maxFileBytes: 1_000 });
    await viewer.act(() => viewer!.model.importFile(new File(['x'.repeat(2_000)], 'big.json')));
    expect(viewer.find('notice-text')?.textContent).toBe(`Nothing was imported: big.json is larger than ${formatBytesToTenthMegabyte(1_000)}.`);
  });

  it('shows the open run as the file brings it: a newer copy in its place, or the run back after it was deleted', async () => {
    const store = await openStoreWithMugs();
    const trace = (await store.getTrace('mugs'))!;
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('mugs'));
    const edited = { ...trace, run: { ...trace.run, request: 'add three mugs to the cart', updatedAt: trace.run.updatedAt + 1_000 } };
    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile([edited]))));
    expect(viewer.find('notice-text')?.textContent).toBe('Imported 1 run. It was already here, and the file’s copy took its place.');
    expect(viewer.find('run-title')?.textContent).toBe('add three mugs to the cart');

    await viewer.act(() => viewer!.model.deleteRuns(['mugs']));
    await viewer.until(() => viewer!.find('run-missing') !== null, 'the run as gone');
    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile([edited]))));
    await viewer.until(() => viewer!.find('run-title') !== null, 'the run back');
    expect(viewer.find('run-missing')).toBeNull();
    expect(viewer.find('run-title')?.textContent).toBe('add three mugs to the cart');
  });
});

/** What the run's header says beside `label`. */
function factShown(mounted: MountedViewer, label: string): string | undefined {
  const term = [...mounted.container.querySelectorAll('dt')].find((element) => element.textContent === label);
  return term?.nextElementSibling?.textContent ?? undefined;
}
