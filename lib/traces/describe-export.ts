import { formatBytesToTenthMegabyte } from '../text/format-bytes';
import { figure, plural } from '../text/plural';
import type { ExportSummary } from './export-in-files';
import { selectRunsToRemove, type RetainedRun } from './select-runs-to-remove';
import type { RetentionLimits } from './trace-settings';

/** What an export did, in words: how many runs, in how many files, and any file that cannot come back. */
export function describeExport(summary: ExportSummary, maxFileBytes: number): string {
  const split = summary.fileCount > 1 ? ` in ${summary.fileCount} files, as the viewer imports files of up to ${formatBytesToTenthMegabyte(maxFileBytes)}` : '';
  const unreadable = summary.tooLarge.map(
    (run) => ` The run "${run.request.slice(0, 80)}" takes ${formatBytesToTenthMegabyte(run.bytes)} on its own, more than the viewer imports: its file cannot be imported back.`,
  );
  return `Exported ${plural(summary.runCount, 'run')}${split}.${unreadable.join('')}`;
}

/**
 * What an import did, in the counts the background gives: runs stored (`replaced` of them were
 * here, `unchanged` as the file has them), and runs `kept` here, newer than the file's.
 */
export function describeImport({ imported, replaced, unchanged, kept }: { imported: number; replaced: number; unchanged: number; kept: number }): string {
  if (unchanged === imported) return describeNothingNew(imported + kept, kept);
  return `Imported ${plural(imported, 'run')}.${describeReplaced(replaced, imported, unchanged)}${describeKept(kept)}`;
}

/**
 * Every run of the file was here already, as the file has it or newer (`kept`, left as they are):
 * the file brought nothing.
 */
function describeNothingNew(runs: number, kept: number): string {
  if (runs === 1) return `Nothing new: the file’s run is here already, ${kept === 1 ? 'newer than in the file, and was kept as it is' : 'as the file has it'}.`;
  const all = `the file’s ${figure(runs)} runs are ${runs === 2 ? 'both' : 'all'} here already`;
  if (kept === 0) return `Nothing new: ${all}, as the file has them.`;
  if (kept === runs) return `Nothing new: ${all}, newer than in the file, and were kept as they are.`;
  return `Nothing new: ${all}, ${figure(runs - kept)} as the file has ${runs - kept === 1 ? 'it' : 'them'} and ${figure(kept)} newer, kept as ${kept === 1 ? 'it is' : 'they are'}.`;
}

/** After an import, the runs of the file that were here already in a later state and stayed as they are, or nothing to say. */
function describeKept(kept: number): string {
  if (kept === 0) return '';
  return kept === 1
    ? ' 1 run was already here, newer than in the file, and was kept as it is.'
    : ` ${figure(kept)} runs were already here, newer than in the file, and were kept as they are.`;
}

/**
 * After an import, how many of the runs it stored were here before: replaced by the file's copies,
 * or, where each was here as last changed when the file's copy was (`unchanged`, a file imported
 * again), here already as the file has them.
 */
function describeReplaced(replaced: number, imported: number, unchanged = 0): string {
  if (replaced === 0) return '';
  const same = unchanged === replaced;
  const one = replaced === 1;
  const after = same ? `, as the file has ${one ? 'it' : 'them'}` : `, and the file’s ${one ? 'copy took its place' : 'copies took their place'}`;
  if (replaced === imported) return ` ${one ? 'It was' : replaced === 2 ? 'Both were' : `All ${figure(replaced)} were`} already here${after}.`;
  return ` ${figure(replaced)} of them ${one ? 'was' : 'were'} already here${after}.`;
}

/**
 * After an import, what the next run's end will remove under the retention limits, or nothing to
 * say. The next run takes a place too, and is the newest.
 */
export function describeRemovalAhead(runs: readonly RetainedRun[], settings: RetentionLimits, now = Date.now()): string {
  // Dated now: a run dated later than now counts as the oldest (see selectRunsToRemove).
  const next = { id: '', startedAt: now, sizeBytes: 0, outcome: 'answer' };
  const over = selectRunsToRemove([...runs, next], settings).length;
  if (over === 0) return '';
  // The limit on runs alone may remove fewer than both do: then both are named, or raising it alone would keep nothing.
  const byCount = selectRunsToRemove([...runs, next], { ...settings, maxMegabytes: Number.POSITIVE_INFINITY }).length;
  if (byCount > 0) {
    const kept = settings.maxRuns === 1 ? 'Only the last run is kept' : `Only the last ${plural(settings.maxRuns, 'run')} are kept`;
    const limits = byCount < over ? `${kept}, up to ${figure(settings.maxMegabytes)} MB` : kept;
    // One more than are over the limit now: the count would read as a slip without the reason.
    return ` ${limits}: when the next run ends, ${oldest(over, runs.length)}${byCount < over ? ', or more,' : ''} will be removed to make room for it, unless you raise ${byCount < over ? 'the limits' : 'the limit'} below.`;
  }
  // How large the next run will be is not known yet: it may push out more.
  return ` Runs are kept up to ${figure(settings.maxMegabytes)} MB: when the next run ends, ${oldest(over, runs.length)}, or more, will be removed to make room for it, unless you raise the limit below.`;
}

/** The runs here that will go: `count` of the `here`, the oldest, or all of them. */
function oldest(count: number, here: number): string {
  if (count >= here) return here === 1 ? 'the run here' : here === 2 ? 'both runs here' : `all ${figure(here)} runs here`;
  return count === 1 ? 'the oldest run here' : `the ${plural(count, 'oldest run')} here`;
}
