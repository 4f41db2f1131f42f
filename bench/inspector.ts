import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { chromiumAvailable, extensionDir } from '../tests/e2e/support';
import { tabIdOf } from '../tests/e2e/support/tab-id-of';
import { VolumeLab } from '../tests/e2e/support/volume-scenarios';
import { whyBrowserBenchSkips, type BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const runs = 3;
const typed = 'invoice 1';

/**
 * The inspector (the devtools panel, opened as a tab) on a page with 500 tools: how long it takes
 * to draw them all and its longest task meanwhile, then keys typed in its filter and the filter
 * cleared. Needs `npm run build`.
 */
export async function benchInspector(): Promise<BenchSection[]> {
  const title = 'Inspector on a page with 500 tools (headless Chromium)';
  const skipped = whyBrowserBenchSkips(existsSync(join(extensionDir, 'manifest.json')), chromiumAvailable);
  if (skipped) return [{ title, rows: [], notes: [skipped] }];
  const lab = await VolumeLab.start();
  const rows: BenchSection['rows'] = [];
  try {
    for (let run = 1; run <= runs; run += 1) {
      // The inspector is open on the tab when the page with 500 tools loads there.
      const page = await lab.extension.context.newPage();
      const inspector = await lab.extension.openExtensionPage(`devtools-panel.html?tabId=${await tabIdOf(page)}`);
      await watchTasks(inspector);
      const loading = timeUntilCards(inspector, 500);
      await page.goto(lab.server.url('many-tools.html'));
      const opened = await loading;
      const openTasks = await takeTasks(inspector);

      const filter = inspector.getByTestId('tool-filter');
      await filter.focus();
      const keys: number[] = [];
      for (const key of typed) {
        const started = performance.now();
        await inspector.keyboard.press(key === ' ' ? 'Space' : key);
        await inspector.evaluate('new Promise((done) => requestAnimationFrame(() => done(null)))');
        keys.push(performance.now() - started);
        await inspector.waitForTimeout(100);
      }
      await inspector.waitForTimeout(400);
      const filtered = await inspector.locator('article.tool').count();
      const typeTasks = await takeTasks(inspector);

      const clearing = timeUntilCards(inspector, 500);
      await filter.fill('');
      const cleared = await clearing;
      await inspector.waitForTimeout(300);
      const clearTasks = await takeTasks(inspector);
      rows.push({
        run,
        'page loads → 500 cards ms': Math.round(opened),
        'longest task ms': openTasks.longest,
        'frame gap ms': openTasks.gap,
        'key → frame max ms': Math.round(Math.max(...keys)),
        'cards for "invoice 1"': filtered,
        'longest task typing ms': typeTasks.longest,
        'cleared → 500 cards ms': Math.round(cleared),
        'longest task clearing ms': clearTasks.longest,
        'frame gap clearing ms': clearTasks.gap,
      });
      await inspector.close();
      await page.close();
    }
  } finally {
    await lab.close();
  }
  return [
    {
      title,
      rows,
      notes: [
        `Keys "${typed}" are typed 100 ms apart; "key → frame": from pressing a key (over the DevTools Protocol) to the inspector's next frame.`,
        'Tasks over 50 ms as the Long Tasks API reports them ("0": none); "frame gap": the longest time between two animation frames.',
      ],
    },
  ];
}

/** Starts counting the page's long tasks and its longest gap between frames. */
async function watchTasks(page: Page): Promise<void> {
  // A string: functions passed from this runner would carry its helpers, which the page lacks.
  await page.evaluate(`(() => {
    window.benchTasks = { longest: 0, gap: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.benchTasks.longest = Math.max(window.benchTasks.longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    let last = performance.now();
    const frame = (now) => {
      window.benchTasks.gap = Math.max(window.benchTasks.gap, now - last);
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
}

/** The longest task and frame gap since the last call (ms), and starts again. */
async function takeTasks(page: Page): Promise<{ longest: number; gap: number }> {
  return page.evaluate(`(() => {
    const taken = { longest: Math.round(window.benchTasks.longest), gap: Math.round(window.benchTasks.gap) };
    window.benchTasks.longest = 0;
    window.benchTasks.gap = 0;
    return taken;
  })()`);
}

async function timeUntilCards(page: Page, count: number): Promise<number> {
  const started = performance.now();
  await page.waitForFunction((wanted) => document.querySelectorAll('article.tool').length === wanted, count, { timeout: 30_000, polling: 20 });
  return performance.now() - started;
}

await runDirectly(import.meta.url, benchInspector);
