import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumAvailable, extensionDir } from '../tests/e2e/support';
import { percentile, type HeapPhases, type LoadFigures } from '../tests/e2e/support/measure-under-load';
import { VolumeLab } from '../tests/e2e/support/volume-scenarios';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

/**
 * The volume loads of the reliability issue, in Chromium with the built extension: how quickly the
 * side panel shows a key pressed during each, and how the JavaScript heaps grow. Needs `npm run build`.
 */
export async function benchVolume(): Promise<BenchSection[]> {
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    return [{ title: 'Volume', rows: [], notes: ['Skipped: build the extension first (`npm run build`).'] }];
  }
  if (!chromiumAvailable) return [{ title: 'Volume', rows: [], notes: ['Skipped: no Chromium.'] }];
  const lab = await VolumeLab.start();
  try {
    const churn = await lab.churn({ perSecond: 50, durationMs: 10_000, keep: 5 });
    const many = await lab.manyTools();
    const big = await lab.bigResult();
    const long = await lab.longReply(1_000_000);
    const loads: Array<[string, LoadFigures]> = [
      [`tools registered and removed 50×/s for 10 s (${churn.counts.registered} + ${churn.counts.removed}), a run meanwhile`, churn.figures],
      ['page with 500 tools loads, then a run calls one', many.figures],
      ['a tool returns 10 MB, twice in a run', big.figures],
      ['a 1 MB model reply in 4-character pieces', long.figures],
    ];
    return [
      responsiveness(loads),
      memory(loads),
      {
        title: 'Volume: what the person sees',
        rows: [
          { measure: 'churn stops → panel counts the tools left (ms)', value: Math.round(churn.settleMs) },
          { measure: '500-tool page → "500 tools" in the panel (ms)', value: Math.round(many.listedMs) },
          { measure: '10 MB result: characters on the card', value: big.shownResult.length },
          { measure: '1 MB reply: request → last block shown (s)', value: round(long.figures.durationMs / 1000) },
          { measure: '1 MB reply: characters the model reads again in the next prompt', value: long.rememberedAnswer },
          { measure: '1 MB reply, after "New chat": worker / panel heap (MB)', value: `${round(long.afterNewChat.worker)} / ${round(long.afterNewChat.panel)}` },
        ],
        notes: [
          'The page cuts a result to 1,000,000 characters; the card shows the first 20,000 and says how many more; the model reads 4,000.',
          'A reply is remembered for later prompts cut to 4,000 characters, and stored for a worker restart cut to 200,000.',
        ],
      },
    ];
  } finally {
    await lab.close();
  }
}

function responsiveness(loads: Array<[string, LoadFigures]>): BenchSection {
  return {
    title: 'Volume: side panel input while the load runs (headless Chromium)',
    rows: loads.map(([load, figures]) => {
      const { keyLatencies, keyRoundTrips, longestFrameGap } = figures.responsiveness;
      return {
        load,
        's': round(figures.durationMs / 1000),
        keys: keyLatencies.length,
        'key → shown p50 ms': Math.round(percentile(keyLatencies, 0.5)),
        'p90 ms': Math.round(percentile(keyLatencies, 0.9)),
        'max ms': Math.round(Math.max(...keyLatencies)),
        'test round trip p50 ms': Math.round(percentile(keyRoundTrips, 0.5)),
        'longest frame gap ms': Math.round(longestFrameGap),
      };
    }),
    notes: [
      'Bound: the panel takes input within 100 ms. "key → shown": from the key event to the next animation frame with the character in the input box, measured in the panel.',
      '"test round trip": the same key pressed and read back over the DevTools Protocol from the test; it adds three protocol round trips on a busy two-core machine.',
      'Keys are typed every 150 ms from the start of the load to its end (the 1 MB reply: until its last block is on screen).',
    ],
  };
}

function memory(loads: Array<[string, LoadFigures]>): BenchSection {
  const phases = (heap: HeapPhases | undefined) => (heap ? `${round(heap.before)} → ${round(heap.peak)} → ${round(heap.after)}` : '');
  return {
    title: 'Volume: JavaScript heap in MB, before → highest during → after (Runtime.getHeapUsage)',
    rows: loads.map(([load, figures]) => ({
      load,
      'service worker': phases(figures.heap.worker),
      'side panel': phases(figures.heap.panel),
      page: phases(figures.heap.page),
    })),
    notes: [
      '"before" and "after" follow a forced garbage collection; "highest" is sampled every 500 ms without one, so it includes garbage not yet collected.',
      'The side panel keeps a shown 1 MB reply (its Markdown blocks) until a new chat; the page column is the web page itself (its tools and the content script).',
    ],
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

await runDirectly(import.meta.url, benchVolume);
