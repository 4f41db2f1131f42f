import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromiumAvailable, extensionDir, launchExtension } from '../tests/e2e/support';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

/** The built extension's entrypoints by size, and how fast the side panel paints. Needs `npm run build`. */
export async function benchExtension(): Promise<BenchSection[]> {
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    return [{ title: 'Built extension', rows: [], notes: ['Skipped: build the extension first (`npm run build`).'] }];
  }
  return [sizes(), await sidePanelPaint()];
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
    notes: ['background.js carries WebLLM (about 6 MB of it); the content scripts run in every page and stay small.'],
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
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    title: 'Side panel first paint (headless Chromium, software rendering, median of 10)',
    rows: [
      { measure: 'first contentful paint (ms)', value: Math.round(median(samples.map((sample) => sample.fcp))) },
      { measure: 'navigation to input ready, connected (ms)', value: Math.round(median(samples.map((sample) => sample.ready))) },
    ],
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

await runDirectly(import.meta.url, benchExtension);
