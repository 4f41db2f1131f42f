// The cost of keeping traces: recording per step, opening the viewer's list of 500 runs (in
// Chromium with the built extension when it can, and in happy-dom), and the viewer with 2,000 runs:
// searching, and deleting them through the background. One file: `npm run bench traces`.
import 'fake-indexeddb/auto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { createElement, render } from 'preact';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { TraceViewerApp } from '../components/traces/trace-viewer-app';
import { createTraceClient } from '../lib/traces/trace-client';
import { TraceViewerModel } from '../lib/traces/trace-viewer-model';
import { hermesFormat, runLocalAgent } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../lib/engines/replay-engine';
import { createStoredRecorder } from '../lib/traces/stored-recorder';
import type { TraceRecorder } from '../lib/traces/trace-recorder';
import type { StoredTrace } from '../lib/traces/trace-schema';
import { measureTrace } from '../lib/traces/measure-trace';
import { defaultTraceSettings } from '../lib/traces/trace-settings';
import { openTraceStore } from '../lib/traces/trace-store';
import { chromiumAvailable, chromiumPath, closeWelcomeTab } from '../tests/e2e/support';
import { createShopPage, shopReplies } from '../tests/traces/support/shop-page';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const stepsPerRun = shopReplies.length;

/** One shop run of the agent loop (4 steps, replayed replies in 4-character chunks), optionally recorded. */
async function shopRun(runId: string, recorder?: TraceRecorder & { flush(): Promise<void> }) {
  const page = createShopPage();
  recorder?.startRun({ runId, tabId: 1, url: page.url, origin: page.origin, engineId: 'replay', model: 'bench', request: 'Two enamel mugs, please', startedAt: Date.now() });
  const result = await runLocalAgent({
    request: 'Two enamel mugs, please',
    model: createReplayEngine(shopReplies, { chunkSize: 4 }),
    format: hermesFormat,
    getTools: page.tools,
    executeTool: (call) => page.executeTool(call.name, call.arguments),
    onEvent: recorder ? (event) => recorder.record(runId, event) : undefined,
  });
  recorder?.endRun(runId, result.finishReason, Date.now());
  // The writes belong to the run's cost: wait for them.
  await recorder?.flush();
}

async function msPerStep(runs: number, run: (index: number) => Promise<void>): Promise<number> {
  for (let warm = 0; warm < 20; warm += 1) await run(-warm - 1);
  const started = performance.now();
  for (let index = 0; index < runs; index += 1) await run(index);
  return (performance.now() - started) / (runs * stepsPerRun);
}

async function recordingCost(): Promise<BenchSection> {
  const runs = 300;
  const store = await openTraceStore(`bench-recording-${Date.now()}`);
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await recorder.ready;
  let insideRecord = 0;
  const timed = {
    ...recorder,
    record(runId: string, event: Parameters<TraceRecorder['record']>[1]) {
      const started = performance.now();
      recorder.record(runId, event);
      insideRecord += performance.now() - started;
    },
  };
  const plainBefore = await msPerStep(runs, () => shopRun('plain'));
  insideRecord = 0;
  const recorded = await msPerStep(runs, (index) => shopRun(`run-${index}`, timed));
  const syncPerStep = insideRecord / ((runs + 20) * stepsPerRun);
  const plainAfter = await msPerStep(runs, () => shopRun('plain'));
  const plain = (plainBefore + plainAfter) / 2;
  return {
    title: 'Trace recording cost per step (agent loop with the replay engine, stored recorder over fake-indexeddb)',
    rows: [
      { measure: 'loop alone', 'ms per step': plain.toFixed(3) },
      { measure: 'loop + stored recorder (writes awaited)', 'ms per step': recorded.toFixed(3) },
      { measure: 'added by recording', 'ms per step': (recorded - plain).toFixed(3), target: '≤ 1 ms' },
      { measure: 'of which inside record() (on the run’s path)', 'ms per step': syncPerStep.toFixed(4) },
    ],
    notes: [
      `${runs} shop runs of ${stepsPerRun} steps each; every run's writes (one batch at its end, then the retention check: a count of the runs, and a read of them all every 25 runs or when a limit may have been passed) are awaited before the next run, with the default retention (${defaultTraceSettings.maxRuns} runs) in force.`,
      'fake-indexeddb is a JavaScript IndexedDB: the writes in Chrome go to its own storage thread and cost the service worker less.',
    ],
  };
}

/**
 * `count` stored runs, each the shop run's trace under another id, request, site and outcome. With
 * `largeEvery`, every so many runs carry large results: each call result at the trace's 20,000-character
 * cap, and 20,000 more characters of raw reply a step.
 */
async function storedRuns(count: number, largeEvery = Infinity): Promise<StoredTrace[]> {
  const store = await openTraceStore(`bench-template-${Date.now()}`);
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await shopRun('template', recorder);
  const template = (await store.getTrace('template'))!;
  const outcomes = ['answer', 'answer', 'answer', 'stopped', 'max-steps', 'error'] as const;
  return Array.from({ length: count }, (_, index) => {
    // Random ids, as the extension gives runs: their order in the store is not the order of their times.
    const id = crypto.randomUUID();
    const origin = `https://shop${index % 7}.example`;
    const large = index % largeEvery === 0;
    const steps = template.steps.map((step) => ({
      ...step,
      runId: id,
      ...(large && {
        raw: step.raw + 'y'.repeat(20_000),
        calls: step.calls.map((call) => (call.result ? { ...call, result: { ...call.result, text: 'x'.repeat(19_900) } } : call)),
      }),
    }));
    const run = { ...template.run, id, origin, url: `${origin}/`, request: `Request ${index}: two enamel mugs, please`, startedAt: 1_700_000_000_000 + index * 60_000, outcome: outcomes[index % outcomes.length] };
    return { run: { ...run, sizeBytes: measureTrace({ run, steps }) }, steps };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
/** The list is shown once its count names every run: the count is drawn with the list. */
const countText = (runs: number) => `${runs} runs`;
const runCount = '[data-testid="run-count"]';

/** In Node: the viewer rendered by Preact into happy-dom, reading fake-indexeddb. */
async function measureViewerInHappyDom(traces: StoredTrace[]): Promise<number> {
  const window = new Window({ url: 'https://viewer.example/traces.html' });
  Object.assign(globalThis, { window, document: window.document, Node: window.Node, HTMLElement: window.HTMLElement, Event: window.Event, IntersectionObserver: window.IntersectionObserver });
  const store = await openTraceStore(`bench-viewer-${Date.now()}`);
  await store.putTraces(traces);
  const times: number[] = [];
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const model = new TraceViewerModel({
      client: createTraceClient({ store: async () => store, request: async () => ({ ok: false, error: { name: 'Error', message: 'unused' } }), openReplayPort: () => { throw new Error('unused'); } }),
      download: () => {},
      settings: { load: async () => defaultTraceSettings, save: async () => defaultTraceSettings },
    });
    const container = window.document.createElement('div');
    window.document.body.append(container);
    render(createElement(TraceViewerApp, { model }), container as unknown as Element);
    const started = performance.now();
    await model.load();
    while (container.querySelector(runCount)?.textContent !== countText(traces.length)) await new Promise((resolve) => setTimeout(resolve, 0));
    if (attempt > 0) times.push(performance.now() - started);
    render(null, container as unknown as Element);
    container.remove();
  }
  return median(times);
}

/** In Chromium: traces.html of the built extension, its database filled with `traces` first. */
async function withViewerInBrowser<T>(traces: StoredTrace[], measure: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  const extension = resolve(dirname(fileURLToPath(import.meta.url)), '../.output/chrome-mv3');
  if (!existsSync(join(extension, 'traces.html'))) throw new Error('the extension is not built (npx wxt build).');
  if (!chromiumAvailable) throw new Error(`Chromium was not found at ${chromiumPath}; set CHROMIUM_PATH.`);
  const profile = mkdtempSync(join(tmpdir(), 'traces-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`, '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const extensionId = new URL(worker.url()).host;
    // The install's welcome would be drawn beside the viewer while it is measured.
    await closeWelcomeTab(context, extensionId);
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/traces.html`);
    await page.waitForSelector('[data-testid="no-runs"]');
    // A hundred runs a call: the large ones carry over 100 kB each.
    for (let start = 0; start < traces.length; start += 100) await page.evaluate(fillTraceDatabase, traces.slice(start, start + 100));
    return await measure(page, context);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Milliseconds from the start of navigation until the list shows, for each of 5 loads (after one to warm up). */
async function listTimes(page: Page, runs: number): Promise<number[]> {
  await page.addInitScript(
    ({ selector, text }) => {
      new MutationObserver((_changes, observer) => {
        if (document.querySelector(selector)?.textContent !== text) return;
        (window as unknown as { listShownAt: number }).listShownAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    },
    { selector: runCount, text: countText(runs) },
  );
  const times: number[] = [];
  for (let attempt = 0; attempt < 6; attempt += 1) {
    await page.reload();
    await page.waitForFunction(() => 'listShownAt' in window, null, { timeout: 60_000 });
    if (attempt > 0) times.push(await page.evaluate(() => (window as unknown as { listShownAt: number }).listShownAt));
  }
  return times;
}

/** Runs in the page: a change to a filter, and the time until the frame after it was drawn. */
function timeToFrame({ testId, value, event }: { testId: string; value: string; event: string }): Promise<number> {
  return new Promise((resolve) => {
    const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-testid="${testId}"]`)!;
    const started = performance.now();
    control.value = value;
    control.dispatchEvent(new Event(event, { bubbles: true }));
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
  });
}

/** Runs in the page: a change to a filter, and the time until the frame after the list's count changed. */
async function timeToList({ testId, value, event }: { testId: string; value: string; event: string }): Promise<number> {
  // No named functions in here: the page has no helper to name them.
  const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-testid="${testId}"]`)!;
  const before = document.querySelector('[data-testid="run-count"]')?.textContent;
  const started = performance.now();
  control.value = value;
  control.dispatchEvent(new Event(event, { bubbles: true }));
  while (document.querySelector('[data-testid="run-count"]')?.textContent === before) await new Promise((resolve) => requestAnimationFrame(resolve));
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - started;
}

/**
 * Runs in the page: stores one more run, as the background does when a run starts elsewhere, and
 * says so on the channel open viewers listen to; milliseconds until the frame after the list's
 * count changed, and the longest task meanwhile.
 */
async function timeToListNews(run: StoredTrace['run']): Promise<{ ms: number; longestTask: number }> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((entry) => entry.duration)));
  observer.observe({ type: 'longtask' });
  const before = document.querySelector('[data-testid="run-count"]')?.textContent;
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const opening = indexedDB.open('webmcp-agent-traces');
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction('runs', 'readwrite');
      transaction.objectStore('runs').put({ ...run, startedAt: Date.now(), updatedAt: Date.now() });
      transaction.oncomplete = () => {
        opening.result.close();
        resolve();
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
  // Another instance of the channel than the viewer's own, as the background's is.
  const channel = new BroadcastChannel('webmcp-agent-trace-runs');
  channel.postMessage('changed');
  channel.close();
  while (document.querySelector('[data-testid="run-count"]')?.textContent === before) await new Promise((resolve) => requestAnimationFrame(resolve));
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const ms = performance.now() - started;
  observer.disconnect();
  return { ms, longestTask: Math.max(0, ...tasks) };
}

/** Runs in the page: asks the background to delete, as the viewer's buttons do; milliseconds until it answered. */
async function timeToDelete(runIds: string[] | undefined): Promise<string> {
  const { chrome } = globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<{ ok: boolean; data: { deleted: number } } | undefined> } } };
  const started = performance.now();
  const answer = await chrome.runtime.sendMessage(runIds ? { type: 'traces-delete', runIds } : { type: 'traces-delete-all' });
  const ms = performance.now() - started;
  if (!answer?.ok) throw new Error(`The deletion failed: ${JSON.stringify(answer)}`);
  return `${ms.toFixed(0)} (${answer.data.deleted} deleted)`;
}

/** The viewer with many stored runs: showing them, searching them, deleting them. */
async function measureManyRunsInBrowser(traces: StoredTrace[]): Promise<Array<Record<string, string | number>>> {
  return withViewerInBrowser(traces, async (page, context) => {
    const shown = await listTimes(page, traces.length);
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    // One key every 150 ms, as a person types; none of them changes the rows drawn.
    const typed = 'request ';
    const keys: number[] = [];
    for (let length = 1; length <= typed.length; length += 1) {
      keys.push(await page.evaluate(timeToFrame, { testId: 'run-search', value: typed.slice(0, length), event: 'input' }));
      await page.waitForTimeout(150);
    }
    // Changes that draw other rows in place of every row drawn, there and back, five times each.
    const searches: number[] = [];
    const outcomes: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const value of ['request 4', '']) searches.push(await page.evaluate(timeToList, { testId: 'run-search', value, event: 'input' }));
      for (const value of ['error', '']) outcomes.push(await page.evaluate(timeToList, { testId: 'outcome-filter', value, event: 'change' }));
    }
    // Runs that start elsewhere, one at a time, each told to the open viewer.
    const news: number[] = [];
    const newsTasks: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const { ms, longestTask } = await page.evaluate(timeToListNews, { ...traces[0]!.run, id: `news-${round}` });
      news.push(ms);
      newsTasks.push(longestTask);
      await page.waitForTimeout(200);
    }
    const half = traces.slice(0, traces.length / 2).map(({ run }) => run.id);
    const deleteHalf = await page.evaluate(timeToDelete, half);
    const deleteRest = await page.evaluate(timeToDelete, undefined);
    return [
      { measure: `navigation → list shown (median of 5 loads)`, value: `${spread(shown)} ms` },
      { measure: 'page heap after GC', value: `${heap.toFixed(1)} MB` },
      { measure: 'elements in the page', value: elements },
      { measure: `search box, each key of "${typed}" → next frame`, value: `${spread(keys)} ms` },
      { measure: 'search "request 4" (111 runs) or back to none → list drawn', value: `${spread(searches)} ms` },
      { measure: 'outcome filter "Error" or back to any → list drawn', value: `${spread(outcomes)} ms` },
      { measure: 'a run stored elsewhere, told on the viewers\' channel → list drawn', value: `${spread(news)} ms` },
      { measure: '… its longest task (0: none over 50 ms)', value: `${spread(newsTasks)} ms` },
      { measure: `delete ${half.length} named runs (traces-delete)`, value: `${deleteHalf} ms` },
      { measure: 'delete all the rest (traces-delete-all)', value: `${deleteRest} ms` },
    ];
  });
}

/** Runs in the page: writes the runs straight into the trace database the page has created. */
function fillTraceDatabase(traces: StoredTrace[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open('webmcp-agent-traces');
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction(['runs', 'steps'], 'readwrite');
      for (const { run, steps } of traces) {
        transaction.objectStore('runs').put(run);
        for (const step of steps) transaction.objectStore('steps').put(step);
      }
      transaction.oncomplete = () => {
        opening.result.close();
        resolve();
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

const skipped = (error: unknown) => ({ skipped: String(error instanceof Error ? error.message : error) });

export async function benchTraces(): Promise<BenchSection[]> {
  const recording = await recordingCost();
  const traces = await storedRuns(500);
  const rows: Array<Record<string, string | number>> = [];
  const notes: string[] = [];
  const browser = await withViewerInBrowser(traces, (page) => listTimes(page, traces.length)).catch(skipped);
  const leftOut: string[] = [];
  if ('skipped' in browser) leftOut.push(`the Chromium row (${browser.skipped})`);
  else rows.push({ where: 'Chromium, the built extension’s traces.html', 'ms to show 500 runs': median(browser).toFixed(0), target: '≤ 300 ms' });
  const happyDom = await measureViewerInHappyDom(traces);
  rows.push({ where: 'happy-dom + fake-indexeddb (Node)', 'ms to show 500 runs': happyDom.toFixed(0), target: '≤ 300 ms' });
  notes.push(
    'Chromium: from the start of navigation to traces.html until its list shows, its count saying 500 runs (script load, IndexedDB open and query, render), median of 5 loads.',
    'happy-dom: from the viewer model’s load() (IndexedDB query) until the list shows, its count saying 500 runs, median of 5.',
  );
  const listing = { title: 'Trace viewer: time to list 500 stored runs', rows, notes, leftOut };
  const many = await measureManyRunsInBrowser(await storedRuns(2_000, 10)).catch(skipped);
  const manyNotes = [
    'The shop run’s 4-step trace under 2,000 ids; every tenth run carries large results (each call result at the 20,000-character cap, 20,000 more characters of raw reply a step).',
    'A key or a filter is timed in the page from its input event to the next frame, or to the frame after the list’s count changed (“list drawn”); each filter there and back five times. The search box’s list waits for a 100 ms pause in typing since the fix, and that wait is counted. The deletions are asked of the background, as the viewer’s buttons ask, and timed until it answers.',
  ];
  const manyRuns = { title: 'Trace viewer with 2,000 stored runs (Chromium, the built extension)', rows: 'skipped' in many ? [] : many, notes: manyNotes };
  return [recording, listing, 'skipped' in many ? { ...manyRuns, leftOut: [`the 2,000-run table (${many.skipped})`] } : manyRuns];
}

await runDirectly(import.meta.url, benchTraces);
