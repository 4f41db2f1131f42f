import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { gzipSync } from 'node:zlib';
import { chromiumAvailable, chromiumPath, extensionDir, launchExtension, serveFixtures } from '../tests/e2e/support';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

/** The built extension's entrypoints by size, and how fast the side panel paints. Needs `npm run build`. */
export async function benchExtension(): Promise<BenchSection[]> {
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    return [{ title: 'Built extension', rows: [], notes: ['Skipped: build the extension first (`npm run build`).'] }];
  }
  return [sizes(), await sidePanelPaint(), await changingToolsCost()];
}

/**
 * What reading a page's tools costs a page whose list keeps changing: 500 tools of 20 parameters,
 * and one that the page registers again every 20 ms (a framework that re-renders). Counted on the
 * page's own main thread, with the browser's WebMCP, with and without the extension: how many of
 * its 250 timer ticks in 5 s run, and the long tasks (over 50 ms) meanwhile.
 */
async function changingToolsCost(): Promise<BenchSection> {
  const title = 'A page whose 500 tools keep changing (headless Chromium with WebMCP, 5 s, median of 3)';
  if (!chromiumAvailable) return { title, rows: [], notes: ['Skipped: no Chromium.'] };
  const folder = mkdtempSync(join(tmpdir(), 'changing-tools-'));
  writeFileSync(
    join(folder, 'changing.html'),
    `<!doctype html><html><head><title>Changing tools</title></head><body><script>
const context = document.modelContext;
for (let tool = 0; tool < 500; tool += 1) {
  const properties = {};
  for (let field = 0; field < 20; field += 1) properties['field_' + field] = { type: 'string', description: 'Field ' + field + ' of tool ' + tool };
  context.registerTool({ name: 'tool_' + tool, description: 'Tool ' + tool + ', with twenty fields.', inputSchema: { type: 'object', properties }, execute: async () => 'ok' });
}
let controller, renders = 0;
window.ticks = 0;
setInterval(() => {
  controller?.abort();
  controller = new AbortController();
  context.registerTool({ name: 'render_count', description: 'Rendered ' + renders++ + ' times.', inputSchema: { type: 'object', properties: {} }, execute: async () => renders }, { signal: controller.signal });
  window.ticks += 1;
}, 20);
</script></body></html>`,
  );
  const server = await serveFixtures(folder);
  const measure = async (context: BrowserContext) => {
    const samples: Array<{ ticks: number; longTaskMs: number }> = [];
    for (let run = 0; run < 3; run += 1) {
      const page = await context.newPage();
      await page.goto(server.url('/changing.html'));
      await page.waitForTimeout(2_000);
      samples.push(
        await page.evaluate(
          () =>
            new Promise<{ ticks: number; longTaskMs: number }>((resolve) => {
              const window_ = window as unknown as { ticks: number };
              const first = window_.ticks;
              let longTaskMs = 0;
              new PerformanceObserver((list) => list.getEntries().forEach((entry) => (longTaskMs += entry.duration))).observe({ type: 'longtask' });
              setTimeout(() => resolve({ ticks: window_.ticks - first, longTaskMs }), 5_000);
            }),
        ),
      );
      await page.close();
    }
    return samples;
  };
  const row = (measureName: string, pick: (sample: { ticks: number; longTaskMs: number }) => number, without: { ticks: number; longTaskMs: number }[], withExtension: { ticks: number; longTaskMs: number }[]) => ({
    measure: measureName,
    'without the extension': Math.round(median(without.map(pick))),
    'with the extension': Math.round(median(withExtension.map(pick))),
  });
  try {
    const plain = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--enable-features=WebMCP'] });
    const without = await measure(await plain.newContext()).finally(() => plain.close());
    const extension = await launchExtension({ webmcp: true });
    const withExtension = await measure(extension.context).finally(() => extension.close());
    return {
      title,
      rows: [row('timer ticks that ran (of 250)', (sample) => sample.ticks, without, withExtension), row('long tasks (ms)', (sample) => sample.longTaskMs, without, withExtension)],
      notes: [
        'The content script reads the tools again 100 ms after a change, and no sooner after its last reading than four times what that reading took; a tool whose text did not change is not checked again.',
        'Before (2026-12-01, commit c09cf86, the same page by a review script and a profile): 41–80 ticks ran, with 3.7–4.4 s of long tasks.',
      ],
    };
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

function sizes(): BenchSection {
  const files = listFiles(extensionDir).filter((file) => /\.(js|css|html)$/.test(file));
  const rows = files
    .map((file) => {
      const bytes = readFileSync(file);
      return { file: relative(extensionDir, file), kB: bytes.length / 1000, 'gzip kB': gzipSync(bytes).length / 1000 };
    })
    .sort((a, b) => b.kB - a.kB);
  return {
    title: 'Size of each built file (.output/chrome-mv3)',
    rows,
    notes: ['webllm.js is WebLLM, which the service worker reads only to load a model; background.js is read at every start of the worker; the content scripts run in every page and stay small.'],
  };
}

async function sidePanelPaint(): Promise<BenchSection> {
  if (!chromiumAvailable) return { title: 'Side panel first paint', rows: [], notes: ['Skipped: no Chromium.'] };
  const extension = await launchExtension({ webmcp: true });
  const samples: Array<{ fcp: number; ready: number }> = [];
  try {
    for (let run = 0; run < 10; run += 1) {
      const page = await extension.context.newPage();
      const started = Date.now();
      await page.goto(`chrome-extension://${extension.extensionId}/sidepanel.html?tabId=1`);
      await page.getByTestId('chat-input').waitFor();
      const ready = Date.now() - started;
      // The entry is written once the paint is presented, which can come after the input is ready.
      const fcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((entries) => {
              const entry = entries.getEntriesByName('first-contentful-paint')[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint', buffered: true });
          }),
      );
      samples.push({ fcp, ready });
      await page.close();
    }
  } finally {
    await extension.close();
  }
  return {
    title: 'Side panel first paint (headless Chromium, software rendering, median of 10)',
    rows: [
      { measure: 'first contentful paint (ms)', value: Math.round(median(samples.map((sample) => sample.fcp))) },
      { measure: 'navigation to input ready, connected (ms)', value: Math.round(median(samples.map((sample) => sample.ready))) },
    ],
  };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

await runDirectly(import.meta.url, benchExtension);
