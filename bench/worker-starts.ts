import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import {
  chromiumAvailable,
  currentServiceWorker,
  extensionDir,
  hearsNavigations,
  launchExtension,
  serveFixtures,
  serviceWorkerRunning as workerRunning,
  stopServiceWorker,
  type LaunchedExtension,
} from '../tests/e2e/support';
import { whyBrowserBenchSkips, type BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../tests/e2e/fixtures');
const trials = 10;
/** Starts timed, each after a stop. */
const timedStarts = 20;
/** A started worker shows up within a second of the event that started it. */
const wakeWaitMs = 2_000;
/** A worker lets go of tab events 2 s after it starts, where nothing follows a tab. */
const restWaitMs = 5_000;

/**
 * How often Chrome starts the stopped service worker as a person browses: pages without tools
 * opened, tabs closed, and, for comparison, a page with tools loading; and how long a start takes.
 * Before each event the worker is stopped, as Chrome does after 30 s idle.
 */
export async function benchWorkerStarts(): Promise<BenchSection[]> {
  const title = `Service worker starts as a person browses (headless Chromium, the built extension, ${trials} events each)`;
  const skip = whyBrowserBenchSkips(existsSync(join(extensionDir, 'manifest.json')), chromiumAvailable);
  if (skip) return [{ title, rows: [], notes: [skip] }, { title: startTimeTitle, rows: [], notes: [skip] }];
  const server = await serveFixtures(fixturesDir);
  const extension = await launchExtension();
  try {
    const { context } = extension;
    const tab = await context.newPage();
    await tab.goto(server.url('empty.html'));
    let page = 0;
    const pagesWithoutTools = await countStarts(context, () => tab.goto(server.url(`empty.html?page=${(page += 1)}`)));
    const closedTabs = await countStarts(context, async () => {
      const other = await context.newPage();
      await other.goto(server.url('empty.html?other'));
      await stopWhenResting(context);
      await other.close();
    });
    const pagesWithTools = await countStarts(context, async () => {
      // From a page without tools, the worker at rest: what starts it is the new page's report.
      await tab.goto(server.url('empty.html?between'));
      await stopWhenResting(context);
      await tab.goto(server.url(`native.html?page=${(page += 1)}`));
    });
    const startTimes = await timeStarts(extension);
    const counts: BenchSection = {
      title,
      rows: [
        { event: 'a page without tools opens in a tab', 'worker starts': `${pagesWithoutTools} of ${trials}` },
        { event: 'a tab showing a page without tools closes', 'worker starts': `${closedTabs} of ${trials}` },
        { event: 'a page with tools opens (it reports them)', 'worker starts': `${pagesWithTools} of ${trials}` },
      ],
      notes: [
        `Before each event the worker is stopped (CDP), once it let go of what it need not hear; a start is a worker running ${wakeWaitMs / 1_000} s after the event.`,
      ],
    };
    return [counts, startTimeSection(startTimes)];
  } finally {
    await extension.close();
    await server.close();
  }
}

const startTimeTitle = `Service worker start time (headless Chromium, the built extension, ${timedStarts} starts)`;

/**
 * How long an extension page's message waits for the stopped worker: Chrome starting it, reading
 * and running its script, the answer. Then, for comparison, the same message to the running worker.
 */
async function timeStarts(extension: LaunchedExtension): Promise<{ starts: number[]; running: number }> {
  const page = await extension.openExtensionPage('options.html');
  const roundTrip = () =>
    page.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };
      const sent = performance.now();
      // No part of the background answers it: it resolves once every listener has had it.
      await chrome.runtime.sendMessage({ type: 'bench-start-time' }).catch(() => undefined);
      return performance.now() - sent;
    });
  const starts: number[] = [];
  for (let trial = 0; trial < timedStarts; trial += 1) {
    await stopWhenResting(extension.context);
    await new Promise((done) => setTimeout(done, 500));
    starts.push(await roundTrip());
  }
  const running = await roundTrip();
  await page.close();
  return { starts, running };
}

function startTimeSection({ starts, running }: { starts: number[]; running: number }): BenchSection {
  const sorted = [...starts].sort((a, b) => a - b);
  const at = (fraction: number) => `${Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!)} ms`;
  const size = (file: string) => (existsSync(join(extensionDir, file)) ? `${Math.round(statSync(join(extensionDir, file)).size / 1024).toLocaleString('en-US')} kB` : 'none');
  return {
    title: startTimeTitle,
    rows: [
      { 'a message from an extension page': 'to the stopped worker (it starts)', median: at(0.5), p10: at(0.1), p90: at(0.9) },
      { 'a message from an extension page': 'to the running worker', median: `${Math.round(running)} ms`, p10: '', p90: '' },
    ],
    notes: [`The worker's script, read at each start: background.js ${size('background.js')}; webllm.js (read only to load a model) ${size('webllm.js')}.`],
  };
}

/** How many of `trials` runs of `event`, each with the worker stopped first, started it. */
async function countStarts(context: BrowserContext, event: () => Promise<unknown>): Promise<number> {
  let starts = 0;
  for (let trial = 0; trial < trials; trial += 1) {
    await stopWhenResting(context);
    await event();
    await new Promise((done) => setTimeout(done, wakeWaitMs));
    if (await workerRunning(context)) starts += 1;
  }
  return starts;
}

/** Stops the worker, once it has let go of the tab events where it does (a build that never does is stopped after `restWaitMs`). */
async function stopWhenResting(context: BrowserContext): Promise<void> {
  if (!(await workerRunning(context))) return;
  const worker = await currentServiceWorker(context);
  const since = Date.now();
  while (Date.now() - since < restWaitMs) {
    if (!(await hearsNavigations(worker).catch(() => false))) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  await stopServiceWorker(context).catch(() => {});
  for (let wait = 0; wait < 50 && (await workerRunning(context)); wait += 1) await new Promise((done) => setTimeout(done, 100));
}

await runDirectly(import.meta.url, benchWorkerStarts);
