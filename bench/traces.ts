// The cost of keeping traces: recording per step, and opening the viewer's list of 500 runs (in
// Chromium with the built extension when it can, and in happy-dom). One file: `npm run bench traces`.
import 'fake-indexeddb/auto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { createElement, render } from 'preact';
import { chromium } from 'playwright-core';
import { TraceViewerApp } from '../components/traces/trace-viewer-app';
import { createTraceClient } from '../lib/traces/trace-client';
import { TraceViewerModel } from '../lib/traces/trace-viewer-model';
import { hermesFormat, runLocalAgent } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../lib/engines/replay-engine';
import { createStoredRecorder } from '../lib/traces/stored-recorder';
import type { TraceRecorder } from '../lib/traces/trace-recorder';
import type { StoredTrace } from '../lib/traces/trace-schema';
import { defaultTraceSettings } from '../lib/traces/trace-settings';
import { openTraceStore } from '../lib/traces/trace-store';
import { chromiumAvailable, chromiumPath } from '../tests/e2e/support';
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

/** 500 stored runs, each the shop run's trace under another id, request, site and outcome. */
async function fiveHundredRuns(): Promise<StoredTrace[]> {
  const store = await openTraceStore(`bench-template-${Date.now()}`);
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await shopRun('template', recorder);
  const template = (await store.getTrace('template'))!;
  const outcomes = ['answer', 'answer', 'answer', 'stopped', 'max-steps', 'error'] as const;
  return Array.from({ length: 500 }, (_, index) => {
    const id = `run-${String(index).padStart(3, '0')}`;
    const origin = `https://shop${index % 7}.example`;
    return {
      run: { ...template.run, id, origin, url: `${origin}/`, request: `Request ${index}: two enamel mugs, please`, startedAt: 1_700_000_000_000 + index * 60_000, outcome: outcomes[index % outcomes.length] },
      steps: template.steps.map((step) => ({ ...step, runId: id })),
    };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const runItems = '[data-testid="run-item"]';

/** In Node: the viewer rendered by Preact into happy-dom, reading fake-indexeddb. */
async function measureViewerInHappyDom(traces: StoredTrace[]): Promise<number> {
  const window = new Window({ url: 'https://viewer.example/traces.html' });
  Object.assign(globalThis, { window, document: window.document, Node: window.Node, HTMLElement: window.HTMLElement, Event: window.Event });
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
    while (container.querySelectorAll(runItems).length < traces.length) await new Promise((resolve) => setTimeout(resolve, 0));
    if (attempt > 0) times.push(performance.now() - started);
    render(null, container as unknown as Element);
    container.remove();
  }
  return median(times);
}

/** In Chromium: traces.html of the built extension, its database filled with the runs first. */
async function measureViewerInBrowser(traces: StoredTrace[]): Promise<{ ms: number }> {
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
    const page = await context.newPage();
    await page.goto(`chrome-extension://${new URL(worker.url()).host}/traces.html`);
    await page.waitForSelector('[data-testid="no-runs"]');
    await page.evaluate(fillTraceDatabase, traces);
    // Each load notes when its list first holds every run, timed from the start of navigation.
    await page.addInitScript((count: number) => {
      new MutationObserver((_changes, observer) => {
        if (document.querySelectorAll('[data-testid="run-item"]').length < count) return;
        (window as unknown as { listShownAt: number }).listShownAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    }, traces.length);
    const times: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await page.reload();
      await page.waitForFunction(() => 'listShownAt' in window);
      if (attempt > 0) times.push(await page.evaluate(() => (window as unknown as { listShownAt: number }).listShownAt));
    }
    return { ms: median(times) };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
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
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

export async function benchTraces(): Promise<BenchSection[]> {
  const recording = await recordingCost();
  const traces = await fiveHundredRuns();
  const rows: Array<Record<string, string | number>> = [];
  const notes: string[] = [];
  const browser = await measureViewerInBrowser(traces).catch((error: unknown) => ({ skipped: String(error instanceof Error ? error.message : error) }));
  if ('skipped' in browser) notes.push(`Not measured in Chromium: ${browser.skipped}`);
  else rows.push({ where: 'Chromium, the built extension’s traces.html', 'ms to show 500 runs': browser.ms.toFixed(0), target: '≤ 300 ms' });
  const happyDom = await measureViewerInHappyDom(traces);
  rows.push({ where: 'happy-dom + fake-indexeddb (Node)', 'ms to show 500 runs': happyDom.toFixed(0), target: '≤ 300 ms' });
  notes.push(
    'Chromium: from the start of navigation to traces.html until its list holds 500 runs (script load, IndexedDB open and query, render), median of 5 loads.',
    'happy-dom: from the viewer model’s load() (IndexedDB query) until the rendered list holds 500 runs, median of 5.',
  );
  return [recording, { title: 'Trace viewer: time to list 500 stored runs', rows, notes }];
}

await runDirectly(import.meta.url, benchTraces);
