import type { RetentionLimits } from './trace-settings';

/** The part of a run record retention looks at. */
export interface RetainedRun {
  id: string;
  startedAt: number;
  sizeBytes: number;
  /** Absent while the run is going on. */
  outcome?: string;
}

/** Clocks differ a little between machines. */
const futureMarginMs = 24 * 60 * 60 * 1000;

/**
 * A run's size as retention counts it: none where its record gives no number (damaged, or written
 * by another version), which would otherwise make every sum unknown and the size limit never hold.
 */
export function storedSize(run: Pick<RetainedRun, 'sizeBytes'>): number {
  return Number.isFinite(run.sizeBytes) ? Math.max(0, run.sizeBytes) : 0;
}

/**
 * Which runs to delete so that at most `maxRuns` runs and `maxMegabytes` remain: the oldest go
 * first. A run still going on is never removed, and the newest finished run is always kept.
 */
export function selectRunsToRemove(runs: readonly RetainedRun[], settings: RetentionLimits, now = Date.now()): string[] {
  const maxBytes = settings.maxMegabytes * 1024 * 1024;
  const age = (run: RetainedRun) => retentionAge(run, now);
  const newestFirst = [...runs].sort((a, b) => age(b) - age(a));
  const remove: string[] = [];
  let count = 0;
  let bytes = 0;
  let keptFinished = false;
  let full = false;
  for (const run of newestFirst) {
    const size = storedSize(run);
    const running = run.outcome === undefined;
    // Once one run does not fit, every older one goes too, even a smaller one.
    full ||= keptFinished && !running && (count + 1 > settings.maxRuns || bytes + size > maxBytes);
    if (full && !running) {
      remove.push(run.id);
      continue;
    }
    count += 1;
    bytes += size;
    keptFinished ||= !running;
  }
  return remove;
}

/**
 * Where a run stands in the order retention removes runs in, the oldest (lowest) first. A run dated
 * in the future (only a file imported before files were checked can be) counts as the oldest: as
 * the newest it would be kept forever, and push out every run recorded after it.
 */
export function retentionAge(run: Pick<RetainedRun, 'startedAt'>, now = Date.now()): number {
  return run.startedAt > now + futureMarginMs ? -Number.MAX_VALUE : run.startedAt;
}
