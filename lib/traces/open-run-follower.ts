// Apart from the viewer's model: an open run still going on is read again, on a timer, until it ends.
import type { ReadonlySignal, Signal } from '@preact/signals';
import type { StoredTrace, TraceRun } from './trace-schema';
import type { TraceViewerOptions } from './trace-viewer-options';

/** What following takes from the viewer: the open run's signals, its way of trying an action, and its reload of the list. */
export interface FollowedViewer {
  readonly openRunId: ReadonlySignal<string | undefined>;
  readonly openTrace: Signal<StoredTrace | null | undefined>;
  /** Runs an action; a failure becomes a notice, and `undefined`. */
  attempt<T>(action: () => Promise<T>): Promise<T | undefined>;
  load(): Promise<void>;
  /** The open run as last read: its row in the list says what its detail shows, between reads of the list. */
  showListed(run: TraceRun): void;
}

/** Reads the open run again while it has not ended, to show its steps as they come. */
export class OpenRunFollower {
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly options: Pick<TraceViewerOptions, 'client' | 'followIntervalMs'>,
    private readonly viewer: FollowedViewer,
  ) {}

  stop(): void {
    clearTimeout(this.timer);
  }

  // A run still going on (or whose worker stopped) is read again until it ends, to show its
  // steps as they come.
  followIfUnfinished(runId: string): void {
    const trace = this.viewer.openTrace.value;
    if (!trace || trace.run.outcome !== undefined) return;
    this.timer = setTimeout(() => void this.refreshOpen(runId), this.options.followIntervalMs ?? 1_000);
  }

  // Only the last step shown and any after it can have changed: earlier ones are not read again,
  // and nothing is redrawn while the run stands still.
  private async refreshOpen(runId: string): Promise<void> {
    const { openRunId, openTrace } = this.viewer;
    const shown = openTrace.value;
    if (openRunId.value !== runId || !shown) return;
    const fromStep = shown.steps.at(-1)?.step ?? 1;
    const fresh = await this.viewer.attempt(async () => (await this.options.client.getTrace(runId, fromStep)) ?? null);
    if (openRunId.value !== runId || openTrace.value !== shown) return;
    // A failed read says so in a notice and is tried again.
    if (fresh === undefined) return this.followIfUnfinished(runId);
    // Deleted meanwhile.
    if (fresh === null) return void (openTrace.value = null);
    const { run } = shown;
    if (fresh.run.updatedAt !== run.updatedAt || fresh.run.sizeBytes !== run.sizeBytes || fresh.run.outcome !== run.outcome) {
      openTrace.value = { run: fresh.run, steps: [...shown.steps.filter((step) => step.step < fromStep), ...fresh.steps] };
      this.viewer.showListed(fresh.run);
    }
    if (fresh.run.outcome !== undefined) await this.viewer.load();
    else this.followIfUnfinished(runId);
  }
}
