import type { AgentEvent } from '@webmcp-agents/local-agent';
import { createChangeFlusher } from './change-flusher';
import { TraceBuilder } from './trace-builder';
import type { NotKept, RunInfo, TraceRecorder } from './trace-recorder';
import { createRetentionCheck } from './retention-check';
import { announceRunsChanged } from './viewer-news';
import { isTraceOutcome } from './trace-schema';
import { loadTraceSettings, type TraceSettings } from './trace-settings';
import { getTraceStore } from './get-trace-store';
import type { TraceStore } from './trace-store';
import { createTraceWriteQueue } from './trace-write-queue';

export interface StoredRecorderOptions {
  /** Where traces go; by default the extension's trace database. */
  store?: TraceStore | Promise<TraceStore>;
  loadSettings?: () => Promise<TraceSettings>;
  /** How long a change waits, so that the changes of a step are written together. Default 0: the next turn of the event loop. */
  flushDelayMs?: number;
  /** The same while a reply streams: what it has written so far is kept this often. Default 1 s. */
  streamFlushDelayMs?: number;
  /** The clock the trace's times come from. */
  now?: () => number;
  /** How often a run that waits for the person's answer is noted as still going. Default 10 s. */
  waitBeatMs?: number;
  /** Told once a new run is first stored, and once an ended one is (older runs trimmed): by default, open viewers are. */
  runsChanged?: () => void;
}

export interface StoredRecorder extends TraceRecorder {
  /** Settles once runs a stopped service worker left unfinished are marked interrupted. */
  readonly ready: Promise<void>;
  /** Writes everything recorded so far; settles when it is stored. */
  flush(): Promise<void>;
}

/**
 * Records every run into IndexedDB as it goes. Events are folded in memory and written in small
 * batches, so a run pays almost nothing; a run cut off by a stopped service worker keeps its steps
 * and is marked interrupted the next time the recorder starts.
 */
export function createStoredRecorder(options: StoredRecorderOptions = {}): StoredRecorder {
  const builders = new Map<string, TraceBuilder>();
  const loadSettings = options.loadSettings ?? loadTraceSettings;
  const now = options.now ?? Date.now;
  // Structural events are written at the next turn of the event loop: a worker may stop any time.
  const flushDelayMs = options.flushDelayMs ?? 0;
  const streamFlushDelayMs = options.streamFlushDelayMs ?? 1_000;

  // A run that waits for the person writes nothing: noted as still going now and then, one cut off
  // meanwhile (a stopped worker) ends about when it was, not when it asked.
  const waitBeatMs = options.waitBeatMs ?? 10_000;
  const beats = new Map<string, ReturnType<typeof setInterval>>();
  const stopBeat = (runId: string) => {
    clearInterval(beats.get(runId));
    beats.delete(runId);
  };

  // The database is opened again at the next write where it failed to open (a transient IndexedDB
  // error as the worker starts must not lose every run it records), and the runs a stopped worker
  // left are marked interrupted once it opens: those of this worker's runs, going on, are not.
  let opening: Promise<TraceStore> | undefined;
  const openStore = (): Promise<TraceStore> => {
    opening ??= Promise.resolve(options.store ?? getTraceStore()).then(
      async (store) => {
        await store.endUnfinished('interrupted', new Set(builders.keys())).catch(report);
        return store;
      },
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  };
  const ready = openStore().then(() => {}, report);
  const writes = createTraceWriteQueue(openStore, ready, report);
  const runsChanged = options.runsChanged ?? announceRunsChanged;
  // Runs started and not yet stored: the viewers list a run once it is.
  const unlisted = new Set<string>();
  const { flush, schedule } = createChangeFlusher(builders, writes, (runs) => {
    if (runs.some((run) => unlisted.delete(run.id))) runsChanged();
  });
  const checkRetention = createRetentionCheck(loadSettings);

  return {
    ready,
    flush,
    whyNotKept: async () => ((await loadSettings()).keepTraces ? whyStoreRefuses(openStore()) : 'traces-off'),
    startRun(info: RunInfo) {
      builders.set(info.runId, new TraceBuilder(info));
      unlisted.add(info.runId);
      schedule(flushDelayMs);
    },
    record(runId: string, event: AgentEvent) {
      const builder = builders.get(runId);
      if (!builder) return;
      try {
        schedule(builder.apply(event, now()) === 'delta' ? streamFlushDelayMs : flushDelayMs);
      } catch (error) {
        // A recorder fault must never reach the run it records.
        report(error);
      }
      // Whatever comes after a question, its wait is over.
      stopBeat(runId);
      if (event.type === 'tool-approval-request') {
        beats.set(
          runId,
          setInterval(() => {
            builder.stillGoing(now());
            schedule(flushDelayMs);
          }, waitBeatMs),
        );
      }
    },
    endRun(runId: string, outcome: string, endedAt: number, notice?: string) {
      stopBeat(runId);
      const builder = builders.get(runId);
      if (!builder) return;
      unlisted.delete(runId);
      builder.end(isTraceOutcome(outcome) ? outcome : 'error', endedAt, notice);
      void flush();
      builders.delete(runId);
      const endedRunBytes = builder.run.sizeBytes;
      void writes.enqueue(async (store) => {
        await checkRetention(store, endedRunBytes);
        runsChanged();
      });
    },
  };
}

function report(error: unknown): void {
  console.warn('The trace could not be stored:', error);
}

/**
 * Whether the database refuses runs for good: one a newer version left (`VersionError`), which this
 * version may neither read nor undo. Any other failure to open may pass (a transient error as the
 * worker starts), and the next write opens it again; an opening that takes long (an upgrade another
 * page blocks) holds no run up: the run goes on, and is kept if it opens.
 */
async function whyStoreRefuses(opening: Promise<TraceStore>): Promise<NotKept | undefined> {
  let timer: ReturnType<typeof globalThis.setTimeout> | undefined;
  const waitedLong = new Promise<undefined>((resolve) => {
    timer = globalThis.setTimeout(() => resolve(undefined), storeCheckMs);
  });
  const failure = await Promise.race([opening.then(() => undefined, (error: unknown) => error), waitedLong]);
  globalThis.clearTimeout(timer);
  return (failure as { name?: unknown } | undefined)?.name === 'VersionError' ? 'cannot-store' : undefined;
}

/** How long a run waits to learn whether its trace can be stored. */
const storeCheckMs = 1_000;
