// How fast a page's tools reach the extension: from `registerTool` in the page to the tool in the
// background's registry (the browser's own API, and a polyfill read through the bridge), and how
// long 300 tools take to be listed. Needs the built extension (`npx wxt build`) and Chromium.
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Worker } from 'playwright-core';
import { InspectorPage, launchExtension, serveFixtures, tabIdOf, type FixtureServer } from '../tests/e2e/support';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = resolve(here, '../tests/e2e/fixtures');
const polyfillFile = resolve(dirname(createRequire(import.meta.url).resolve('@mcp-b/webmcp-polyfill')), 'index.iife.js');
const singleRuns = 20;
const bulkRuns = 5;

export async function benchDiscovery(): Promise<BenchSection> {
  const server = await serveFixtures(fixturesDir, { '/vendor/webmcp-polyfill.js': polyfillFile });
  try {
    const native = await measureBrowser(server, true);
    const bridged = await measureBrowser(server, false);
    return {
      title: 'Discovery: from the page to the registry',
      rows: [
        row('registerTool → registry, browser API (1 tool)', native.single),
        row('registerTool → registry, polyfill via the bridge (1 tool)', bridged.single),
        row('300 tools → registry, browser API', native.bulk),
        row('300 tools → listed in the inspector, browser API', native.listed),
        row('300 tools → registry, polyfill via the bridge', bridged.bulk),
      ],
      notes: [
        `Median of ${singleRuns} registrations one after another (the next starts once the last arrived), and of ${bulkRuns} page loads for 300 tools.`,
        'Times include the content script’s 100 ms quiet period before it reports a change; the registry time is when the background saved the list.',
        'Headless Chromium with --enable-features=WebMCP for the browser API; without it for the polyfill (@mcp-b/webmcp-polyfill 5.1.0).',
      ],
    };
  } finally {
    await server.close();
  }
}

interface Timings {
  single: number[];
  bulk: number[];
  listed: number[];
}

async function measureBrowser(server: FixtureServer, webmcp: boolean): Promise<Timings> {
  const extension = await launchExtension({ webmcp });
  try {
    const page = await extension.context.newPage();
    await page.addInitScript(nameHelper);
    const tabId = await tabIdOf(page);
    const worker = extension.serviceWorker;
    await worker.evaluate(nameHelper);
    await watchRegistry(worker);
    await page.goto(server.url(webmcp ? 'empty.html' : 'empty-polyfill.html'));
    const single: number[] = [];
    for (let run = 0; run < singleRuns; run += 1) single.push(await timeRegistration(page, worker, tabId, [`single_${run}`]));
    const inspector = webmcp ? await InspectorPage.open(extension, tabId) : undefined;
    await inspector?.page.evaluate(nameHelper);
    const bulk: number[] = [];
    const listed: number[] = [];
    for (let run = 0; run < bulkRuns; run += 1) {
      await page.reload();
      await page.waitForTimeout(300);
      const names = Array.from({ length: 300 }, (_, index) => `bulk_${run}_${index}`);
      const shown = inspector?.page.evaluate(waitForToolCount, 300);
      bulk.push(await timeRegistration(page, worker, tabId, names));
      if (shown) listed.push((await shown) - (await page.evaluate(() => (window as unknown as BenchWindow).registeredAt)));
    }
    return { single, bulk, listed };
  } finally {
    await extension.close();
  }
}

/**
 * tsx compiles this file keeping function names, through a `__name` helper that the functions
 * sent to the browser would call; the browser gets a helper that does nothing.
 */
const nameHelper = 'globalThis.__name ??= (target) => target;';

interface BenchWindow {
  registeredAt: number;
}
interface BenchGlobal {
  arrivals: Map<string, number>;
  chrome: { storage: { session: { onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void } } } };
}

/** In the service worker: note when each tool name first appears in the saved registry. */
async function watchRegistry(worker: Worker): Promise<void> {
  await worker.evaluate(() => {
    const scope = globalThis as unknown as BenchGlobal;
    scope.arrivals = new Map();
    scope.chrome.storage.session.onChanged.addListener((changes) => {
      const now = Date.now();
      for (const change of Object.values(changes)) {
        const frames = (change.newValue as { frames?: Record<string, { tools: Array<{ name: string }> }> } | undefined)?.frames ?? {};
        for (const frame of Object.values(frames)) for (const tool of frame.tools) if (!scope.arrivals.has(tool.name)) scope.arrivals.set(tool.name, now);
      }
    });
  });
}

/** Registers the tools in the page in one go; milliseconds until the registry holds the last of them. */
async function timeRegistration(page: Page, worker: Worker, tabId: number, names: string[]): Promise<number> {
  const startedAt = await page.evaluate((toolNames) => {
    const context = (document as unknown as { modelContext: { registerTool(tool: object): unknown } }).modelContext;
    const registeredAt = Date.now();
    (window as unknown as BenchWindow).registeredAt = registeredAt;
    for (const name of toolNames) context.registerTool({ name, description: `Benchmark tool ${name}.`, execute: async () => name });
    return registeredAt;
  }, names);
  const last = names.at(-1)!;
  for (let waited = 0; waited < 10_000; waited += 5) {
    const arrived = await worker.evaluate((name) => (globalThis as unknown as BenchGlobal).arrivals.get(name), last);
    if (arrived !== undefined) return arrived - startedAt;
    await page.waitForTimeout(5);
  }
  throw new Error(`Tab ${tabId}: "${last}" did not reach the registry within 10 s.`);
}

/** In the inspector: resolves with the time its header first says `count` tools. */
function waitForToolCount(count: number): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      if (document.querySelector('.tool-count')?.textContent !== `${count} tools`) return false;
      resolve(Date.now());
      return true;
    };
    if (check()) return;
    const observer = new MutationObserver(() => check() && observer.disconnect());
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

function row(measure: string, times: number[]): Record<string, string | number> {
  const sorted = [...times].sort((left, right) => left - right);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return { measure, 'median ms': median, 'min ms': sorted[0] ?? 0, 'max ms': sorted.at(-1) ?? 0, runs: times.length };
}

await runDirectly(import.meta.url, benchDiscovery);
