import { batch, signal } from '@preact/signals';
import { createRunFilter } from './create-run-filter';
import { downloadInFiles, exportInFiles } from './export-in-files';
import type { ReplayState } from './replay-state';
import type { TraceClient } from './trace-client';
import { describeExport, describeImport, describeRemovalAhead } from './describe-export';
import { attemptAction } from './attempt-action';
import { readsOneAtATime } from './reads-one-at-a-time';
import { errorMessage } from '../messaging/error-message';
import { OpenRunFollower } from './open-run-follower';
import { onRunsChanged } from './viewer-news';
import { formatBytesToTenthMegabyte } from '../text/format-bytes';
import { utf8Length } from '../text/utf8-length';
import { figure, plural } from '../text/plural';
import { maxTraceFileBytes } from './trace-file';
import type { ReplayTab } from './trace-protocol';
import type { StoredTrace, TraceRun } from './trace-schema';
import type { TraceSettings } from './trace-settings';
import { TraceReplay } from './trace-replay';
import { retentionAge } from './select-runs-to-remove';
import type { TraceViewerOptions } from './trace-viewer-options';


export interface Notice {
  tone: 'info' | 'error';
  text: string;
}

/** The trace viewer's state, in signals: components read it, its methods change it. */
export class TraceViewerModel {
  readonly runs = signal<TraceRun[]>([]);
  readonly loaded = signal(false);
  /** Why the last reading of the list failed, where it did: an empty list is then not "no runs". */
  readonly listUnread = signal<string | undefined>(undefined);
  readonly query = signal('');
  readonly site = signal('');
  readonly outcome = signal('');
  /** The call mark picked (see call-marks): `''`, any run. */
  readonly calls = signal('');
  readonly openRunId = signal<string | undefined>(undefined);
  /** `null` when the run asked for is not stored. */
  readonly openTrace = signal<StoredTrace | null | undefined>(undefined);
  /** Why the open run could not be read (the extension's background not answering, say), where it could not. */
  readonly openError = signal<string | undefined>(undefined);
  readonly notice = signal<Notice | undefined>(undefined);
  /** A file chosen to import is being read, checked or stored. */
  readonly importing = signal(false);
  readonly replayTabs = signal<ReplayTab[]>([]);
  readonly replayTabId = signal<number | undefined>(undefined);
  /** The tab chosen to replay in, which closed or no longer offers tools as the list followed the tabs: nothing took its place. */
  readonly replayTabLeft = signal<number | undefined>(undefined);
  readonly replay = signal<ReplayState>({ status: 'idle' });
  readonly retention = signal<TraceSettings | undefined>(undefined);

  /** The list narrowed by search, site, outcome and calls. */
  private readonly filter = createRunFilter({ runs: this.runs, query: this.query, site: this.site, outcome: this.outcome, calls: this.calls });
  readonly sites = this.filter.sites;
  readonly visibleRuns = this.filter.visibleRuns;

  /** The largest file imported, and so the largest file an export writes. */
  readonly maxFileBytes: number;

  private readonly replayer: TraceReplay;
  private readonly follower: OpenRunFollower;
  /**
   * An import's notice while it says what the next run's end will remove: what it said of the
   * import, and the runs listed then, so that once they go it says they went (see `readList`).
   */
  private removalAhead?: { notice: Notice; imported: string; listed: ReadonlyMap<string, number> };
  /** The list read one read at a time (see `load`). */
  private readonly readListInTurn = readsOneAtATime(() => this.readList());
  /** How to stop following the retention settings, and how many changes of them were heard (see `loadRetention`). */
  private stopWatchingRetention: (() => void) | undefined;
  private retentionHeard = 0;

  constructor(private readonly options: TraceViewerOptions) {
    this.maxFileBytes = options.maxFileBytes ?? maxTraceFileBytes;
    this.replayer = new TraceReplay(options, {
      openRunId: this.openRunId,
      openTrace: this.openTrace,
      replayTabs: this.replayTabs,
      replayTabId: this.replayTabId,
      replayTabLeft: this.replayTabLeft,
      replay: this.replay,
    });
    this.follower = new OpenRunFollower(options, {
      openRunId: this.openRunId,
      openTrace: this.openTrace,
      attempt: (action) => this.attempt(action),
      load: () => this.load(),
      showListed: (run) => {
        const index = this.runs.value.findIndex((listed) => listed.id === run.id);
        if (index !== -1) this.runs.value = this.runs.value.with(index, run);
      },
    });
  }

  /**
   * Reads the list of runs again. Reads go one at a time, and a call made while one goes on is
   * answered by a read that begins after it (the one going on may have begun before what the caller
   * changed); a list read as it was leaves the page as it is.
   */
  load(): Promise<void> {
    return this.readListInTurn();
  }

  /**
   * Reads the list again whenever the stored runs change elsewhere (a run starts or ends, a viewer
   * deletes or imports), so a viewer left open in a window never focused keeps up; returns how to stop.
   */
  watchRuns(): () => void {
    return onRunsChanged(() => void this.load());
  }

  private async readList(): Promise<void> {
    let unread: string | undefined;
    const read = await attemptAction(async () => {
      const runs = await this.options.client.listRuns();
      if (!sameRuns(runs, this.runs.value)) this.runs.value = runs;
      this.sayRemovedSinceImport(runs);
      // A site whose last run went is no longer offered: filtering on it would hide every run left.
      if (this.site.value && !this.sites.value.includes(this.site.value)) this.site.value = '';
      return true;
    }, (why) => (unread = why));
    // Said in the list's place, where it stays as long as it holds: a notice may be dismissed.
    this.listUnread.value = read === true ? undefined : unread;
    // The run on screen went meanwhile (another viewer deleted it, or the retention limit removed
    // it): it says so, and its replay stops, rather than offer buttons that can only fail.
    const openId = this.openRunId.value;
    if (openId && this.openTrace.value && !this.runs.value.some((run) => run.id === openId)) await this.open(openId);
    // The open run could not be read: the window coming back tries again.
    else if (openId && this.openError.value !== undefined) await this.open(openId);
    this.loaded.value = true;
  }

  /**
   * The import's notice said what the next run's end would remove: once runs it listed have gone,
   * it says they went, rather than that they will. Any other notice since leaves it be.
   */
  private sayRemovedSinceImport(runs: readonly TraceRun[]): void {
    const ahead = this.removalAhead;
    if (!ahead || this.notice.value !== ahead.notice) {
      this.removalAhead = undefined;
      return;
    }
    const now = new Set(runs.map((run) => run.id));
    // Retention removes the oldest finished runs: a run that went while an older one listed then
    // stays was deleted otherwise (in another viewer), and is not said to have gone to the limits.
    const oldestLeft = Math.min(...runs.flatMap((run) => (run.outcome !== undefined && ahead.listed.has(run.id) ? [ahead.listed.get(run.id)!] : [])));
    const gone = [...ahead.listed].filter(([id, age]) => !now.has(id) && age <= oldestLeft).length;
    if (gone === 0) return;
    this.removalAhead = undefined;
    // None of them left: the limits, a deletion elsewhere, or both; which, the list cannot tell.
    const why = oldestLeft === Infinity ? 'Since then, every run listed then has gone.' : `Since then, the ${plural(gone, 'oldest run')} ${gone === 1 ? 'was' : 'were'} removed, to keep within the limits below.`;
    this.notice.value = { tone: 'info', text: `${ahead.imported} ${why}` };
  }

  /**
   * Reads the retention settings, and from then on follows those another viewer saves. A read
   * that fails, or answers after a saved change was heard (which it may not include), leaves the
   * form as it is.
   */
  async loadRetention(): Promise<void> {
    this.stopWatchingRetention ??= this.options.settings.watch?.((settings) => {
      this.retentionHeard += 1;
      this.retention.value = settings;
    });
    const heardBefore = this.retentionHeard;
    const read = await this.attempt(() => this.options.settings.load());
    if (read && this.retentionHeard === heardBefore) this.retention.value = read;
  }

  /** Takes effect when the next run ends. */
  async saveRetention(change: Partial<TraceSettings>): Promise<void> {
    const saved = await this.attempt(() => this.options.settings.save(change));
    if (!saved) return;
    this.retention.value = saved;
    const text = saved.keepTraces
      ? `Keeping the last ${figure(saved.maxRuns)} runs, up to ${figure(saved.maxMegabytes)} MB.`
      : 'Keeping no traces of new runs. The runs listed stay until you delete them.';
    this.notice.value = { tone: 'info', text };
  }

  /** Every run listed again: the search and the filters cleared. */
  clearFilters(): void {
    batch(() => {
      this.query.value = '';
      this.site.value = '';
      this.outcome.value = '';
      this.calls.value = '';
    });
  }

  async open(runId: string): Promise<void> {
    if (this.openRunId.value !== runId) {
      this.replayer.reset();
      // Another run may be from another site: the tab picked for the last one must not carry over.
      this.replayTabId.value = undefined;
      this.replayTabLeft.value = undefined;
    }
    this.openRunId.value = runId;
    this.openError.value = undefined;
    this.follower.stop();
    // A read that failed is not a run that is gone: the run stays named, and can be read again.
    const read = await this.options.client.getTrace(runId).then((trace) => ({ trace }), (error: unknown) => ({ error: errorMessage(error) }));
    if (this.openRunId.value !== runId) return;
    if ('error' in read) {
      this.openTrace.value = undefined;
      this.openError.value = read.error;
      return;
    }
    const { trace } = read;
    this.openTrace.value = trace ?? null;
    // A run not shown has no replay panel: its replay would go on unseen, holding its tab.
    if (!trace) this.replayer.reset();
    this.follower.followIfUnfinished(runId);
  }

  close(): void {
    this.follower.stop();
    this.replayer.reset();
    this.openRunId.value = undefined;
    this.openTrace.value = undefined;
    this.openError.value = undefined;
  }

  async deleteRuns(runIds: string[] | 'all'): Promise<void> {
    await this.attempt(async () => {
      const { deleted, skippedRunning } = runIds === 'all' ? await this.options.client.deleteAll() : await this.options.client.deleteRuns(runIds);
      const kept = skippedRunning > 0 ? ` ${plural(skippedRunning, 'run')} still going on ${skippedRunning === 1 ? 'was' : 'were'} kept.` : '';
      const text = deleted === 0 && skippedRunning === 0 ? nothingDeleted(runIds) : `Deleted ${plural(deleted, 'run')}.${kept}`;
      this.notice.value = { tone: 'info', text };
      const openId = this.openRunId.value;
      const replaying = this.replay.value.status === 'running';
      if (openId && (runIds === 'all' || runIds.includes(openId))) await this.open(openId);
      if (replaying && this.openTrace.value === null) this.notice.value = { tone: 'info', text: `${text} Its replay was cancelled.` };
      await this.load();
    });
  }

  /**
   * Imports a file the person chose. Reading and checking a large one takes a while (about a
   * second for 15 MB): the viewer says what it is doing, and shows that before it starts.
   */
  async importFile(file: Pick<File, 'name' | 'size' | 'text'>): Promise<void> {
    // One at a time: a second file's notice would take the place of the first's result.
    if (this.importing.value) return;
    if (file.size > this.maxFileBytes) {
      this.notice.value = { tone: 'error', text: tooLarge(file.name, this.maxFileBytes) };
      return;
    }
    this.importing.value = true;
    try {
      this.notice.value = { tone: 'info', text: `Importing ${file.name}…` };
      await afterPaint();
      // Its size in bytes is known: counting the text's again held the page for most of a second.
      await this.importChecked(() => this.options.client.importChosenFile(file));
    } finally {
      this.importing.value = false;
    }
  }

  /**
   * Hands a file's text to the background, which checks all of it before it stores any (a bad file
   * changes nothing, and its notice says why). Checked there only, once: checking it here as well
   * held this page up to a second for a large file, and did the work twice.
   */
  async importText(text: string): Promise<void> {
    if (utf8Length(text) > this.maxFileBytes) {
      this.notice.value = { tone: 'error', text: tooLarge('the file', this.maxFileBytes) };
      return;
    }
    await this.importChecked(() => this.options.client.importFile(text));
  }

  /** Imports a file whose size is checked already, by `importing` it, and says what came of it. */
  private async importChecked(importing: () => ReturnType<TraceClient['importFile']>): Promise<void> {
    await this.attempt(async () => {
      const { imported, replaced, unchanged, kept, runIds } = await importing();
      // The run open may be one the file brought back, or a newer copy of: shown as it is now stored.
      const openId = this.openRunId.value;
      if (openId && runIds.includes(openId)) await this.open(openId);
      await this.load();
      // Retention counts imported runs too: say before it happens what the next run will remove.
      const settings = this.retention.value;
      const removal = settings ? describeRemovalAhead(this.runs.value, settings) : '';
      const said = describeImport({ imported, replaced, unchanged, kept });
      const notice: Notice = { tone: 'info', text: runIds.length === 0 ? 'This file holds no runs.' : `${said}${removal}` };
      this.notice.value = notice;
      if (runIds.length > 0 && removal) this.removalAhead = { notice, imported: said, listed: new Map(this.runs.value.map((run) => [run.id, retentionAge(run)])) };
    }, 'Nothing was imported. ');
  }

  /**
   * Every run (or the named ones) as files the viewer imports back: one file, or, past the size it
   * imports, several, each saying which part it is.
   */
  async exportRuns(runIds?: string[]): Promise<void> {
    await this.attempt(async () => {
      const runs = runIds ? runIds.map((id) => ({ id, sizeBytes: 0 })) : await this.options.client.listRuns();
      // Every run, thousands maybe, takes a second or two to read and write out; one run does not.
      if (!runIds) {
        this.notice.value = { tone: 'info', text: `Exporting ${plural(runs.length, 'run')}…` };
        await afterPaint();
      }
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
      const name = runIds?.length === 1 ? `trace-${stamp}-${runIds[0]!.slice(0, 8)}` : `traces-${stamp}`;
      // Every run in one file is read in one go, without naming each.
      const read = (ids: string[]) => this.options.client.getTraces(!runIds && ids.length === runs.length ? undefined : ids);
      const summary = await downloadInFiles(exportInFiles(runs, read, this.maxFileBytes), name, this.options.download);
      if (summary.runCount === 0 && runIds) return this.exportedNone(runIds);
      this.notice.value = { tone: summary.tooLarge.length ? 'error' : 'info', text: describeExport(summary, this.maxFileBytes) };
    });
  }

  /** The named runs were removed meanwhile (retention, another viewer tab): says so, and shows the open one as gone. */
  private async exportedNone(runIds: string[]): Promise<void> {
    const text = runIds.length === 1 ? 'This run is no longer stored: nothing was exported.' : 'These runs are no longer stored: nothing was exported.';
    this.notice.value = { tone: 'error', text };
    const openId = this.openRunId.value;
    if (openId && runIds.includes(openId)) await this.open(openId);
  }

  /** See TraceReplay.loadTabs. */
  loadReplayTabs(): Promise<void> {
    return this.replayer.loadTabs();
  }

  /** See TraceReplay.followTabs. */
  followReplayTabs(): () => void {
    return this.replayer.followTabs();
  }

  /** The person chose the tab to replay in. */
  chooseReplayTab(tabId: number): void {
    this.replayTabId.value = tabId;
    this.replayTabLeft.value = undefined;
  }

  /** See TraceReplay.refreshTabs. */
  refreshReplayTabs(): Promise<void> {
    return this.replayer.refreshTabs();
  }

  startReplay(): void {
    this.replayer.start();
  }

  answerConfirm(allow: boolean): void {
    this.replayer.answerConfirm(allow);
  }

  cancelReplay(): void {
    this.replayer.cancel();
  }

  [Symbol.dispose](): void {
    this.stopWatchingRetention?.();
    this.stopWatchingRetention = undefined;
    this.close();
  }

  /** Runs an action; a failure becomes a notice in words, never an uncaught error. */
  private attempt<T>(action: () => Promise<T>, prefix = ''): Promise<T | undefined> {
    return attemptAction(action, (text) => (this.notice.value = { tone: 'error', text }), prefix);
  }
}

/** Whether a list read again holds the runs shown, as they were: each written run changes its `updatedAt`. */
function sameRuns(read: readonly TraceRun[], shown: readonly TraceRun[]): boolean {
  if (read.length !== shown.length) return false;
  return read.every((run, index) => {
    const before = shown[index]!;
    return run.id === before.id && run.updatedAt === before.updatedAt && run.outcome === before.outcome && run.sizeBytes === before.sizeBytes && run.stepCount === before.stepCount;
  });
}

/** What a deletion that found nothing to delete says: another viewer, or retention, removed it first. */
function nothingDeleted(runIds: string[] | 'all'): string {
  if (runIds === 'all') return 'There was no run to delete.';
  return runIds.length === 1 ? 'This run was no longer stored: nothing was deleted.' : 'These runs were no longer stored: nothing was deleted.';
}

/**
 * Resolves once the page has had a frame to show what changed: after the next animation frame, or
 * after 100 ms where none comes (a page in a background tab draws none).
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }),
    );
  });
}

function tooLarge(name: string, maxFileBytes: number): string {
  return `Nothing was imported: ${name} is larger than ${formatBytesToTenthMegabyte(maxFileBytes)}.`;
}
