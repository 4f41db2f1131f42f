import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { chromiumAvailable, chromiumPath, extensionDir, launchExtension, serveFixtures } from '../tests/e2e/support';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const runs = 5;
/** Past the walk the form reader makes once the page is loaded and the browser idle (within 1 s). */
const settleMs = 1_500;
const liveMs = 5_000;

/** Pages without tools, as most pages are: what the content scripts cost each of them. */
const pages = {
  'plain.html': '<!doctype html><html><head><title>Plain</title></head><body><h1>Hello</h1><p>A plain page with no tools.</p></body></html>',
  // Ads and widgets: every frame gets both content scripts.
  'frames.html': `<!doctype html><html><head><title>Frames</title></head><body>${'<iframe src="plain.html" width="100" height="50"></iframe>'.repeat(8)}</body></html>`,
  'big.html': `<!doctype html><html><head><title>Big</title></head><body><main>${bigRows()}</main></body></html>`,
  // A feed item of 20 elements every 50 ms (the oldest dropped past 200), a clock's text and class every 16 ms.
  'live.html': `<!doctype html><html><head><title>Live</title></head><body><div id="clock"></div><ul id="feed"></ul><script>
const feed = document.getElementById('feed');
const clock = document.getElementById('clock');
let count = 0;
setInterval(() => {
  const item = document.createElement('li');
  item.innerHTML = '<div><span>user ' + count + '</span><div><p>message ' + count + '</p><a href="#">reply</a><b>x</b></div><ul><li>a</li><li>b</li><li>c</li></ul><img alt=""><i>i</i><span>y</span><span>z</span><em>e</em><small>s</small></div>';
  feed.append(item);
  count += 1;
  if (feed.children.length > 200) feed.firstElementChild.remove();
}, 50);
setInterval(() => {
  clock.textContent = String(performance.now());
  clock.className = 'c' + (count % 2);
}, 16);
</script></body></html>`,
};

interface Sample {
  scriptMs: number;
  heapMB: number;
  contentLoadedMs: number;
}

/**
 * What the content scripts cost pages that offer no tools (headless Chromium, median of 5 and the
 * range): script time (the page's and the extension's, from navigation until the form reader's
 * walk after load is done), JavaScript heap after a collection, and DOMContentLoaded. With the
 * browser's WebMCP on, and off (where the extension reads `<form toolname>` itself). Needs `npm run build`.
 */
export async function benchContentScripts(): Promise<BenchSection> {
  const title = 'Content scripts on pages without tools (headless Chromium, median of 5, range in brackets)';
  if (!existsSync(join(extensionDir, 'manifest.json'))) return { title, rows: [], notes: ['Skipped: build the extension first (`npm run build`).'] };
  if (!chromiumAvailable) return { title, rows: [], notes: ['Skipped: no Chromium.'] };
  const folder = mkdtempSync(join(tmpdir(), 'content-scripts-'));
  for (const [name, html] of Object.entries(pages)) writeFileSync(join(folder, name), html);
  const server = await serveFixtures(folder);
  const measureAll = async (context: BrowserContext) => ({
    plain: await measure(context, server.url('/plain.html')),
    frames: await measure(context, server.url('/frames.html')),
    big: await measure(context, server.url('/big.html')),
    live: await measure(context, server.url('/live.html'), liveMs),
  });
  try {
    const plain = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
    const without = await measureAll(await plain.newContext()).finally(() => plain.close());
    const withWebMcp = await launchExtension({ webmcp: true });
    const on = await measureAll(withWebMcp.context).finally(() => withWebMcp.close());
    const withoutWebMcp = await launchExtension({ webmcp: false });
    const off = await measureAll(withoutWebMcp.context).finally(() => withoutWebMcp.close());
    const row = (measureName: string, pick: (results: typeof on) => number[]) => ({
      measure: measureName,
      'without the extension': spread(pick(without)),
      'with, WebMCP on': spread(pick(on)),
      'with, WebMCP off': spread(pick(off)),
    });
    const script = (page: keyof typeof on) => (results: typeof on) => results[page].map((sample) => sample.scriptMs);
    const heap = (page: keyof typeof on) => (results: typeof on) => results[page].map((sample) => sample.heapMB);
    return {
      title,
      rows: [
        row('plain page: script (ms)', script('plain')),
        row('plain page: heap (MB)', heap('plain')),
        row('8 frames of it (9 frames): script (ms)', script('frames')),
        row('9 frames: heap (MB)', heap('frames')),
        row('40,000 elements, no form: script (ms)', script('big')),
        row('40,000 elements: DOMContentLoaded (ms)', (results) => results.big.map((sample) => sample.contentLoadedMs)),
        row(`live page: script in ${liveMs / 1_000} s after it settled (ms)`, script('live')),
      ],
      notes: [
        'Script time counts every script of the page, its frames and the content scripts; the page alone is the first column.',
        'The live page adds a 20-element item every 50 ms and sets a clock’s text and class every 16 ms.',
      ],
    };
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Loads `url` `runs` times; with `steadyMs`, the script time is that of `steadyMs` once the page settled. */
async function measure(context: BrowserContext, url: string, steadyMs = 0): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(settleMs);
    const scriptSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? Number.NaN;
    const settled = await scriptSeconds();
    if (steadyMs > 0) await page.waitForTimeout(steadyMs);
    const scriptMs = ((await scriptSeconds()) - (steadyMs > 0 ? settled : 0)) * 1_000;
    await cdp.send('HeapProfiler.collectGarbage');
    const heapMB = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
    const contentLoadedMs = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd);
    samples.push({ scriptMs, heapMB, contentLoadedMs });
    await page.close();
  }
  return samples;
}

/** 2,000 rows of 20 elements each. */
function bigRows(): string {
  const row = (index: number) =>
    `<div class="row"><div><div><div><a href="#">x</a><span>t</span><span>u</span></div></div><ul><li>a</li><li>b</li><li>c</li><li><div><div><div><div><p>paragraph ${index}</p></div></div></div></div></li></ul><img alt=""><b>b</b><i>i</i></div></div>`;
  return Array.from({ length: 2_000 }, (_, index) => row(index)).join('');
}

/** The median, and the range in brackets: this machine's figures spread widely. */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const digits = sorted[sorted.length - 1]! < 10 ? 1 : 0;
  const format = (value: number) => value.toFixed(digits);
  return `${format(sorted[Math.floor(sorted.length / 2)]!)} (${format(sorted[0]!)}–${format(sorted[sorted.length - 1]!)})`;
}

await runDirectly(import.meta.url, benchContentScripts);
