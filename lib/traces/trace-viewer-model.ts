import { computed, signal } from '@preact/signals';
import { downloadInFiles, exportInFiles } from './export-in-files';
import { utf8Length } from '../text/utf8-length';
import { replayStateAfter, type ReplayState } from './replay-state';
import { formatBytesToTenthMegabyte } from '../text/format-bytes';
import { describeExport, describeRemovalAhead } from './describe-export';
import { errorMessage } from '../messaging/error-message';
import { plural } from '../text/plural';
import type { TraceClient } from './trace-client';
import { createTraceFile, maxTraceFileBytes, readTraceFile } from './trace-file';
import type { ReplayTab } from './trace-protocol';
import type { StoredTrace, TraceRun } from './trace-schema';
import type { TraceSettings } from './trace-settings';

export interface Notice {
  tone: 'info' | 'error';
  text: string;
}

export interface TraceViewerOptions {
  client: TraceClient;
  /** Hands the person a file: a download in the page, a capture in tests. */
  download(fileName: string, text: string): void;
  /** How often an unfinished run that is open is read again. Default 1 s. */
  followIntervalMs?: number;
  /** The retention settings, kept in extension storage. */
  settings: { load(): Promise<TraceSettings>; save(change: Partial<TraceSettings>): Promise<TraceSettings> };
  /** The largest file imported, and so the largest file an export writes. Default 50 MB. */
  maxFileBytes?: number;
}

/** The outcome filter's value for runs that have not ended. */
export const runningFilter = 'running';

/** The trace viewer's state, in signals: components read it, its methods change it. */
export class TraceViewerModel {
  readonly runs = signal<TraceRun[]>([]);
  readonly loaded = signal(false);
  readonly query = signal('');
  readonly site = signal('');
  readonly outcome = signal('');
  readonly openRunId = signal<string | undefined>(undefined);
  /** `null` when the run asked for is not stored. */
  readonly openTrace = signal<StoredTrace | null | undefined>(undefined);
  readonly notice = signal<Notice | undefined>(undefined);
  readonly replayTabs = signal<ReplayTab[]>([]);
  readonly replayTabId = signal<number | undefined>(undefined);
  readonly replay = signal<ReplayState>({ status: 'idle' });
  readonly retention = signal<TraceSettings | undefined>(undefined);

  readonly sites = computed(() => [...new Set(this.runs.value.map((run) => run.origin))].sort());
  /** Each run's request in lower case, worked out once a load rather than again at every key of a search. */
  private readonly searchedRequests = computed(() => this.runs.value.map((run) => run.request.toLowerCase()));
  readonly visibleRuns = computed(() => {
    const query = this.query.value.trim().toLowerCase();
    const site = this.site.value;
    const outcome = this.outcome.value;
    const requests = query ? this.searchedRequests.value : [];
    return this.runs.value.filter(
      (run, index) =>
        (!query || requests[index]!.includes(query)) && (!site || run.origin === site) && (!outcome || (run.outcome ?? runningFilter) === outcome),
    );
  });

  /** The largest file imported, and so the largest file an export writes. */
  readonly maxFileBytes: number;

  private replayHandle?: { confirm(callId: string, allow: boolean): void; cancel(): void };
  private followTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly options: TraceViewerOptions) {
    this.maxFileBytes = options.maxFileBytes ?? maxTraceFileBytes;
  }

  async load(): Promise<void> {
    await this.attempt(async () => {
      this.runs.value = await this.options.client.listRuns();
    });
    this.loaded.value = true;
  }

  async loadRetention(): Promise<void> {
    this.retention.value = await this.attempt(() => this.options.settings.load());
  }

  /** Takes effect when the next run ends. */
  async saveRetention(change: Partial<TraceSettings>): Promise<void> {
    const saved = await this.attempt(() => this.options.settings.save(change));
    if (!saved) return;
    this.retention.value = saved;
    const text = saved.keepTraces
      ? `Keeping the last ${saved.maxRuns} runs, up to ${saved.maxMegabytes} MB.`
      : 'Keeping no traces of new runs. The runs listed stay until you delete them.';
    this.notice.value = { tone: 'info', text };
  }

  async open(runId: string): Promise<void> {
    if (this.openRunId.value !== runId) {
      this.resetReplay();
      // Another run may be from another site: the tab picked for the last one must not carry over.
      this.replayTabId.value = undefined;
    }
    this.openRunId.value = runId;
    clearTimeout(this.followTimer);
    const trace = await this.attempt(() => this.options.client.getTrace(runId));
    if (this.openRunId.value !== runId) return;
    this.openTrace.value = trace ?? null;
    this.followIfUnfinished(runId);
  }

  close(): void {
    clearTimeout(this.followTimer);
    this.resetReplay();
    this.openRunId.value = undefined;
    this.openTrace.value = undefined;
  }

  async deleteRuns(runIds: string[] | 'all'): Promise<void> {
    await this.attempt(async () => {
      const { deleted, skippedRunning } = runIds === 'all' ? await this.options.client.deleteAll() : await this.options.client.deleteRuns(runIds);
      const kept = skippedRunning > 0 ? ` ${plural(skippedRunning, 'run')} still going on ${skippedRunning === 1 ? 'was' : 'were'} kept.` : '';
      this.notice.value = { tone: 'info', text: `Deleted ${plural(deleted, 'run')}.${kept}` };
      const openId = this.openRunId.value;
      if (openId && (runIds === 'all' || runIds.includes(openId))) await this.open(openId);
      await this.load();
    });
  }

  /** Checks a file here first (a bad one changes nothing), then hands it to the background. */
  async importText(text: string): Promise<void> {
    if (utf8Length(text) > this.maxFileBytes) {
      this.notice.value = { tone: 'error', text: `Nothing was imported: the file is larger than ${formatBytesToTenthMegabyte(this.maxFileBytes)}.` };
      return;
    }
    const reading = readTraceFile(text);
    if (!reading.ok) {
      this.notice.value = { tone: 'error', text: `Nothing was imported. ${reading.message}` };
      return;
    }
    await this.attempt(async () => {
      const { imported } = await this.options.client.importFile(createTraceFile(reading.traces));
      await this.load();
      // Retention counts imported runs too: say before it happens what the next run will remove.
      const settings = this.retention.value;
      this.notice.value = { tone: 'info', text: `Imported ${plural(imported, 'run')}.${settings ? describeRemovalAhead(this.runs.value, settings) : ''}` };
    }, 'Nothing was imported. ');
  }

  /**
   * Every run (or the named ones) as files the viewer imports back: one file, or, past the size it
   * imports, several, each saying which part it is.
   */
  async exportRuns(runIds?: string[]): Promise<void> {
    await this.attempt(async () => {
      const runs = runIds ? runIds.map((id) => ({ id, sizeBytes: 0 })) : await this.options.client.listRuns();
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
      const name = runIds?.length === 1 ? `trace-${stamp}-${runIds[0]!.slice(0, 8)}` : `traces-${stamp}`;
      // Every run in one file is read in one go, without naming each.
      const read = (ids: string[]) => this.options.client.getTraces(!runIds && ids.length === runs.length ? undefined : ids);
      const summary = await downloadInFiles(exportInFiles(runs, read, this.maxFileBytes), name, this.options.download);
      this.notice.value = { tone: summary.tooLarge.length ? 'error' : 'info', text: describeExport(summary, this.maxFileBytes) };
    });
  }

  /** The tabs a run can be replayed in; the run's own tab first choice while it shows the same site. */
  async loadReplayTabs(): Promise<void> {
    const run = this.openTrace.value?.run;
    const tabs = (await this.attempt(() => this.options.client.replayTabs(), '', false)) ?? [];
    this.replayTabs.value = tabs;
    const sameSite = tabs.filter((tab) => tab.origin === run?.origin);
    const chosen = sameSite.find((tab) => tab.tabId === run?.tabId) ?? sameSite[0];
    if (!tabs.some((tab) => tab.tabId === this.replayTabId.value)) this.replayTabId.value = chosen?.tabId;
  }

  startReplay(): void {
    const runId = this.openRunId.value;
    const tabId = this.replayTabId.value;
    if (!runId || tabId === undefined || this.replay.value.status === 'running') return;
    this.replay.value = { status: 'running', progress: 'Starting the replay' };
    this.replayHandle = this.options.client.replay(runId, tabId, {
      onMessage: (message) => {
        if (message.type === 'done' || message.type === 'failed') this.replayHandle = undefined;
        this.replay.value = replayStateAfter(message);
      },
      onLost: () => (this.replay.value = { status: 'failed', message: 'The extension stopped the replay (its background restarted).' }),
    });
  }

  answerConfirm(allow: boolean): void {
    const state = this.replay.value;
    if (state.status !== 'running' || !state.confirm) return;
    this.replayHandle?.confirm(state.confirm.callId, allow);
    this.replay.value = { status: 'running', progress: allow ? `Running ${state.confirm.name}` : `Skipped ${state.confirm.name}` };
  }

  cancelReplay(): void {
    this.resetReplay();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  private resetReplay(): void {
    this.replayHandle?.cancel();
    this.replayHandle = undefined;
    this.replay.value = { status: 'idle' };
  }

  // A run still going on (or whose worker stopped) is read again until it ends, to show its
  // steps as they come.
  private followIfUnfinished(runId: string): void {
    const trace = this.openTrace.value;
    if (!trace || trace.run.outcome !== undefined) return;
    this.followTimer = setTimeout(() => void this.refreshOpen(runId), this.options.followIntervalMs ?? 1_000);
  }

  // Only the last step shown and any after it can have changed: earlier ones are not read again,
  // and nothing is redrawn while the run stands still.
  private async refreshOpen(runId: string): Promise<void> {
    const shown = this.openTrace.value;
    if (this.openRunId.value !== runId || !shown) return;
    const fromStep = shown.steps.at(-1)?.step ?? 1;
    const fresh = await this.attempt(async () => (await this.options.client.getTrace(runId, fromStep)) ?? null);
    if (this.openRunId.value !== runId || this.openTrace.value !== shown) return;
    // A failed read says so in a notice and is tried again.
    if (fresh === undefined) return this.followIfUnfinished(runId);
    // Deleted meanwhile.
    if (fresh === null) return void (this.openTrace.value = null);
    const { run } = shown;
    if (fresh.run.updatedAt !== run.updatedAt || fresh.run.sizeBytes !== run.sizeBytes || fresh.run.outcome !== run.outcome) {
      this.openTrace.value = { run: fresh.run, steps: [...shown.steps.filter((step) => step.step < fromStep), ...fresh.steps] };
    }
    if (fresh.run.outcome !== undefined) await this.load();
    else this.followIfUnfinished(runId);
  }

  /** Runs an action; a failure becomes a notice in words, never an uncaught error. */
  private async attempt<T>(action: () => Promise<T>, prefix = '', report = true): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      if (report) this.notice.value = { tone: 'error', text: `${prefix}${errorMessage(error)}` };
      return undefined;
    }
  }
}

