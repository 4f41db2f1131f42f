import type { Page } from 'playwright-core';
import { pageHeap, workerHeap, type HeapMegabytes } from './heap-usage';
import { startPanelProbe, stopPanelProbe, typeProbeKeys, type Responsiveness } from './panel-responsiveness';

/** A heap before the load (after a garbage collection), at its highest during it, and after it (collected again). */
export interface HeapPhases {
  before: HeapMegabytes;
  peak: HeapMegabytes;
  after: HeapMegabytes;
}

export interface LoadFigures {
  durationMs: number;
  responsiveness: Responsiveness;
  heap: { worker: HeapPhases; panel: HeapPhases; page?: HeapPhases };
}

export interface LoadTargets {
  panel: Page;
  /** The web page under load, when its own heap is worth watching too. */
  page?: Page;
}

export interface LoadOptions {
  keyIntervalMs?: number;
  /** Keys typed even when the load ends sooner. */
  atLeastKeys?: number;
  heapSampleMs?: number;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** What the load may do with the panel the person is typing into. */
export interface LoadControls {
  /** Runs `action` between two key presses (to send a request from the same input box). */
  withoutTyping<T>(action: () => Promise<T>): Promise<T>;
}

/**
 * Runs `load` while a person types into the side panel, and measures what they would notice:
 * how long each key takes to show, and how the worker's, panel's (and page's) heaps grow.
 */
export async function measureUnderLoad<T>(
  targets: LoadTargets,
  load: (controls: LoadControls) => Promise<T>,
  options: LoadOptions = {},
): Promise<{ result: T; figures: LoadFigures }> {
  const exclusive = createInputTurns();
  const before = await readHeaps(targets, true);
  await startPanelProbe(targets.panel);
  const started = performance.now();
  let ended: number | undefined;
  const outcome: Promise<Outcome<T>> = load({ withoutTyping: exclusive }).then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
  void outcome.finally(() => (ended = performance.now()));
  const loading = () => ended === undefined;
  const peaks = watchHeapPeaks(targets, before, loading, options.heapSampleMs ?? 500);
  const roundTrips = await typeProbeKeys(targets.panel, {
    while: loading,
    atLeast: options.atLeastKeys ?? 10,
    intervalMs: options.keyIntervalMs ?? 150,
    exclusive,
  });
  const settled = await outcome;
  const peak = await peaks;
  if (!settled.ok) throw settled.error;
  const responsiveness = await stopPanelProbe(targets.panel, roundTrips);
  const after = await readHeaps(targets, true);
  const phases = (key: keyof Heaps): HeapPhases => ({
    before: before[key] ?? 0,
    peak: Math.max(peak[key] ?? 0, after[key] ?? 0),
    after: after[key] ?? 0,
  });
  return {
    result: settled.value,
    figures: {
      durationMs: (ended ?? performance.now()) - started,
      responsiveness,
      heap: { worker: phases('worker'), panel: phases('panel'), ...(targets.page ? { page: phases('page') } : {}) },
    },
  };
}

/** Runs actions on the input box one at a time: a key press never lands in the middle of a request being typed. */
function createInputTurns(): LoadControls['withoutTyping'] {
  let turn: Promise<unknown> = Promise.resolve();
  return <R,>(action: () => Promise<R>): Promise<R> => {
    const run = turn.then(action);
    turn = run.catch(() => undefined);
    return run;
  };
}

/** The highest heaps seen, sampled every `intervalMs` while `loading()` holds. */
async function watchHeapPeaks(targets: LoadTargets, start: Heaps, loading: () => boolean, intervalMs: number): Promise<Heaps> {
  const peak = { ...start };
  while (loading()) {
    const now = await readHeaps(targets, false);
    for (const key of Object.keys(now) as Array<keyof Heaps>) peak[key] = Math.max(peak[key] ?? 0, now[key] ?? 0);
    await targets.panel.waitForTimeout(intervalMs);
  }
  return peak;
}

interface Heaps {
  worker: HeapMegabytes;
  panel: HeapMegabytes;
  page?: HeapMegabytes;
}

async function readHeaps({ panel, page }: LoadTargets, collectGarbage: boolean): Promise<Heaps> {
  const [worker, panelHeap, pageHeapNow] = await Promise.all([
    workerHeap(panel, { collectGarbage }),
    pageHeap(panel, { collectGarbage }),
    page ? pageHeap(page, { collectGarbage }) : undefined,
  ]);
  return { worker, panel: panelHeap, ...(pageHeapNow === undefined ? {} : { page: pageHeapNow }) };
}

/** The value below which `share` of `values` lie (0.5: the median). */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}
