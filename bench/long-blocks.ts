import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumAvailable, extensionDir } from '../tests/e2e/support';
import { percentile } from '../tests/e2e/support/measure-under-load';
import { VolumeLab } from '../tests/e2e/support/volume-scenarios';
import { whyBrowserBenchSkips, type BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const characters = 200_000;
const runs = 3;

/**
 * A reply that is one long Markdown block, a list or a table, streamed into the side panel while a
 * person types: how late their keys show and the longest time without a frame. Needs `npm run build`.
 */
export async function benchLongBlocks(): Promise<BenchSection[]> {
  const title = 'Side panel while a reply that is one 200 kB list or table streams (headless Chromium)';
  const skipped = whyBrowserBenchSkips(existsSync(join(extensionDir, 'manifest.json')), chromiumAvailable);
  if (skipped) return [{ title, rows: [], notes: [skipped] }];
  const lab = await VolumeLab.start();
  const rows: BenchSection['rows'] = [];
  try {
    for (const shape of ['list', 'table'] as const) {
      for (let run = 1; run <= runs; run += 1) {
        const { figures, shownRows } = await lab.longBlockReply(shape, characters);
        const { keyLatencies, keyRoundTrips, longestFrameGap } = figures.responsiveness;
        rows.push({
          reply: `one ${shape}, run ${run}`,
          'items or rows': shownRows,
          s: Math.round(figures.durationMs / 100) / 10,
          keys: keyLatencies.length,
          'key → shown p90 ms': Math.round(percentile(keyLatencies, 0.9)),
          'round trip p50 ms': Math.round(percentile(keyRoundTrips, 0.5)),
          'p90 ms': Math.round(percentile(keyRoundTrips, 0.9)),
          'max ms': Math.round(Math.max(...keyRoundTrips)),
          'longest frame gap ms': Math.round(longestFrameGap),
        });
      }
    }
  } finally {
    await lab.close();
  }
  return [
    {
      title,
      rows,
      notes: [
        'The replay engine streams the reply in 64-character pieces every 10 ms; keys are typed every 150 ms until its last line is on screen.',
        '"round trip": a key pressed and read back over the DevTools Protocol from the test, which includes any wait behind the panel\'s work; "key → shown" starts at the key event in the panel, after that wait.',
      ],
    },
  ];
}

await runDirectly(import.meta.url, benchLongBlocks);
