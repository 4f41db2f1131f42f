import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support';
import { percentile, type HeapPhases, type LoadFigures } from './support/measure-under-load';
import { VolumeLab } from './support/volume-scenarios';

/**
 * The panel takes a key press within 100 ms, as the issue asks: `npm run bench` measures that, on a
 * quiet machine (bench/RESULTS.md, p90 14–33 ms). This test guards against a panel that freezes
 * under the load, with room for a busy CI machine, where one collection of a 10 MB result once
 * put a p90 of ten keys at 109 ms.
 */
const inputBoundMs = 250;
/** `VOLUME_FULL=1` churns for 30 s; CI runs the 10-second churn the issue names. */
const full = process.env.VOLUME_FULL === '1';

function expectResponsive(figures: LoadFigures): void {
  const { keyLatencies, keysMissing } = figures.responsiveness;
  expect(keysMissing).toBe(0);
  expect(keyLatencies.length).toBeGreaterThanOrEqual(10);
  // Nine keys in ten show within the bound; a stray one may meet a collection.
  expect(percentile(keyLatencies, 0.9)).toBeLessThan(inputBoundMs);
  expect(Math.max(...keyLatencies)).toBeLessThan(inputBoundMs * 4);
}

/** A heap that stays under `peakMb` during the load and keeps at most `keptMb` more after it. */
function expectBounded(heap: HeapPhases, peakMb: number, keptMb: number): void {
  expect(heap.peak).toBeLessThan(peakMb);
  expect(heap.after - heap.before).toBeLessThan(keptMb);
}

function report(name: string, figures: LoadFigures): void {
  const { keyLatencies, longestFrameGap } = figures.responsiveness;
  const heap = (phases: HeapPhases) => `${phases.before.toFixed(1)}→${phases.peak.toFixed(1)}→${phases.after.toFixed(1)} MB`;
  console.info(
    `${name}: ${(figures.durationMs / 1000).toFixed(1)} s; key → shown p50 ${percentile(keyLatencies, 0.5).toFixed(0)} ms, ` +
      `p90 ${percentile(keyLatencies, 0.9).toFixed(0)} ms, max ${Math.max(...keyLatencies).toFixed(0)} ms (${keyLatencies.length} keys); ` +
      `longest frame gap ${longestFrameGap.toFixed(0)} ms; worker ${heap(figures.heap.worker)}, panel ${heap(figures.heap.panel)}` +
      (figures.heap.page ? `, page ${heap(figures.heap.page)}` : ''),
  );
}

describe.skipIf(!chromiumAvailable)('under volume the side panel never freezes on input and memory stays bounded', () => {
  let lab: VolumeLab;

  beforeAll(async () => {
    lab = await VolumeLab.start();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('a page that registers and removes tools 50 times a second for 10 s, while the agent uses one of its tools', { timeout: 60_000 }, async () => {
    const churn = await lab.churn({ perSecond: 50, durationMs: full ? 30_000 : 10_000, keep: 5 });
    report('churn', churn.figures);
    expect(churn.counts.registered).toBe(full ? 1_500 : 500);
    expect(churn.counts.removed).toBe(churn.counts.registered - 5);
    expect(churn.statusCard).toBe('done');
    // The registry follows the page: once it is still, the panel counts what is left within a second.
    expect(churn.settleMs).toBeLessThan(1_000);
    expectResponsive(churn.figures);
    expectBounded(churn.figures.heap.worker, 60, 5);
    expectBounded(churn.figures.heap.panel, 40, 5);
    // The content script keeps nothing per change: the page's heap (its tools and the script) stays small.
    expectBounded(churn.figures.heap.page!, 40, 5);
  });

  it('a page with 500 tools: listed while it loads, and the agent finds and calls the one asked for', { timeout: 60_000 }, async () => {
    const many = await lab.manyTools();
    report('500 tools', many.figures);
    expect(many.listedMs).toBeLessThan(5_000);
    expect(many.cards).toEqual([['track_parcel', 'done']]);
    expect(many.pageCalls).toBe(1);
    expectResponsive(many.figures);
    expectBounded(many.figures.heap.worker, 60, 10);
    expectBounded(many.figures.heap.panel, 40, 5);
  });

  it('a tool that returns 10 MB, twice: the card shows the start and says how much more there was', { timeout: 60_000 }, async () => {
    const big = await lab.bigResult();
    report('10 MB result', big.figures);
    expect(big.cards).toEqual([
      ['export_everything', 'done'],
      ['export_everything', 'done'],
    ]);
    expect(big.shownResult.startsWith('EXPORT START\nRecord: a line of the export')).toBe(true);
    // The page's 10 MB is cut in the page to 999,999 characters, a line saying so included; the
    // card shows the first 20,000, and counts the rest of the 10,485,760 the page gave.
    expect(big.shownResult).toMatch(/\n… \(10465760 more characters\)$/);
    // What the model read is counted of the 10 MB the page gave, not of the million carried.
    expect(big.resultSummary).toMatch(/^Result · the model read the first [\d,]+ of 10,485,760 characters$/);
    expectResponsive(big.figures);
    expectBounded(big.figures.heap.worker, 100, 5);
    expectBounded(big.figures.heap.panel, 40, 5);
  });

  it('a model reply of 1 MB streams in four-character pieces; the next request works and a new chat frees the memory', { timeout: 260_000 }, async () => {
    const long = await lab.longReply(1_000_000);
    report('1 MB reply', long.figures);
    expect(long.replyCharacters).toBe(1_000_000);
    // All of it is shown (as text, without the Markdown marks).
    expect(long.shownCharacters).toBeGreaterThan(700_000);
    // The model reads the answer again cut to a quarter of its 4,096-token context (about 2,500
    // characters of this Markdown, with a note), not the whole megabyte.
    expect(long.rememberedAnswer).toBeGreaterThan(2_000);
    expect(long.rememberedAnswer).toBeLessThanOrEqual(4_000);
    expectResponsive(long.figures);
    expectBounded(long.figures.heap.worker, 150, 10);
    // The panel holds the reply's blocks while it shows them; a new chat lets them go.
    expect(long.figures.heap.panel.peak).toBeLessThan(150);
    expect(long.afterNewChat.panel - long.figures.heap.panel.before).toBeLessThan(5);
    expect(long.afterNewChat.worker - long.figures.heap.worker.before).toBeLessThan(5);
  });
});
