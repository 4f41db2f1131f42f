import { takeHandedFile } from './file-handoff';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { canonicalJson, type ToolScorer } from '@webmcp-agents/local-agent';
import { callMarksOf } from './call-marks';
import { measureTrace } from './measure-trace';
import { announceRunsChanged } from './viewer-news';
import { siteOfTraceAddress, traceAddress } from './trace-address';
import { createTraceFile, readTraceFile } from './trace-file';
import {
  traceRequestSchema,
  type ReplayTab,
  type TraceRequest,
  type TraceRequestType,
  type TraceResponse,
  type TraceResponseData,
} from './trace-protocol';
import type { StoredTrace, TraceRun, TraceStep } from './trace-schema';
import type { TraceStore } from './trace-store';
import type { TabDrivers } from '../service-worker/tab-drivers';
import { connectReplaySession, type ReplayPort } from './replay-session';
import { createTimeSlices } from './time-slices';
import { siteOfReport } from '../registry/report-site';
import { namedError } from '../messaging/named-error';

/** What a tab offers now, as the tool registry reports it. */
export interface TabTools {
  url: string;
  origin: string;
  title?: string;
  tools: readonly ToolDescriptor[];
}

/** What the background gives the trace service: the store, the tabs and their tools, the settings. Tests pass their own. */
export interface TraceServiceBackground {
  store(): Promise<TraceStore>;
  getTabTools(tabId: number): Promise<TabTools | undefined>;
  executeTabTool(
    tabId: number,
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolOutput>;
  /** Resolves once the tab's tool list has caught up with what a tool just did to the page, or at the ceiling, or when `signal` aborts. */
  settleTools?(tabId: number, signal: AbortSignal): Promise<void>;
  /** The ids of the open tabs. */
  listTabIds(): Promise<number[]>;
  /** The address of the tab's page (its top frame's), where it is known. */
  pageAddress?(tabId: number): Promise<string | undefined>;
  /**
   * Whether the tab is in a private (incognito) window: the viewer, which a normal window shows,
   * neither lists it nor replays into it (see `isPrivateTab`).
   */
  isPrivateTab(tabId: number): Promise<boolean>;
  /** The ranker the settings ask for now. */
  scorer?(): Promise<ToolScorer | undefined>;
  /** How long a replayed tool may take. Default 30 s. */
  toolTimeoutMs?(): Promise<number>;
  /** The person's consent settings: whether every call asks, and the sites where the agent is off. */
  consent?(): Promise<{ askEveryCall: boolean; disabledSites: readonly string[] }>;
  /** Keeps the service worker up while a replay runs; returns the release. */
  keepAwake?(): () => void;
  /** Who runs tools in which tab, shared with the agent (see `createTabDrivers`); default: replays never wait for a run. */
  tabDrivers?: TabDrivers;
}

/** Answers the trace viewer: list, get, delete, import, export, and replays over a port. */
export function createTraceService(given: TraceServiceBackground) {
  // A sandboxed page is named by its address's site, as the agent names it (see `siteOfReport`):
  // the tab list offers it for runs on that site, and a replay there is refused where the agent is off.
  const background: TraceServiceBackground = { ...given, getTabTools: async (tabId) => namedBySite(await given.getTabTools(tabId)) };
  // Imports go one at a time: each reads what the one before stored (the same file imported from
  // two viewers at once is imported once, and the second says so).
  let imports: Promise<unknown> = Promise.resolve();
  const oneImportAtATime = <T>(run: () => Promise<T>): Promise<T> => {
    const next = imports.then(run);
    imports = next.catch(() => {});
    return next;
  };
  const answer = async (request: TraceRequest): Promise<TraceResponseData<TraceRequestType>> => {
    // A file handed over is taken out first, whatever happens next: none is left in the database.
    const handed = request.type === 'traces-import-handed' ? await handedFileText(request.key) : undefined;
    const store = await background.store();
    switch (request.type) {
      case 'traces-list':
        return { runs: await store.listRuns() };
      case 'traces-get':
        return { trace: await store.getTrace(request.runId) };
      // Every open viewer is told, the one that asked too: its reads of the list go one at a time.
      case 'traces-delete':
        return announcedAfter(store.deleteFinished(request.runIds));
      case 'traces-delete-all':
        return announcedAfter(store.deleteFinished());
      case 'traces-import':
        return announcedAfter(oneImportAtATime(() => importFile(store, request.file)));
      case 'traces-import-handed':
        return announcedAfter(oneImportAtATime(() => importFile(store, handed)));
      case 'traces-export':
        return { file: createTraceFile(await store.getTraces(request.runIds)) };
      case 'traces-replay-tabs':
        return { tabs: await replayTabs(background) };
    }
  };

  return {
    /** Never throws: a bad request or a fault comes back as `{ok: false, error}`. */
    async handle(raw: unknown): Promise<TraceResponse> {
      const parsed = traceRequestSchema().safeParse(raw);
      if (!parsed.success) return failure('TraceRequestError', 'The trace service did not understand that request.');
      try {
        return { ok: true, data: await answer(parsed.data) };
      } catch (error) {
        const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
        return failure(name, message);
      }
    },
    connectReplay(port: ReplayPort): void {
      connectReplaySession(port, background);
    },
  };
}

function namedBySite(tabTools: TabTools | undefined): TabTools | undefined {
  return tabTools && { ...tabTools, origin: siteOfReport(tabTools) };
}

/** The text of the file the viewer handed over as `key` (see `handOverFile`). */
async function handedFileText(key: string): Promise<string> {
  const file = await takeHandedFile(key);
  if (!file) throw namedError('TraceFileError', 'The file was no longer there to read; choose it again.');
  return file.text();
}

/**
 * Checks and stores an imported file. Its runs are checked and measured a slice of time at a time
 * (see createTimeSlices): a large file leaves the worker free for an agent run's stream meanwhile.
 */
async function importFile(store: TraceStore, file: unknown) {
  const nextSlice = createTimeSlices();
  const reading = await readTraceFile(file, Date.now(), nextSlice);
  if (!reading.ok) throw namedError('TraceFileError', reading.message);
  const stored = new Map((await store.listRuns()).map((run) => [run.id, run]));
  const clash = reading.traces.find(({ run }) => stored.has(run.id) && stored.get(run.id)!.outcome === undefined);
  if (clash) throw namedError('TraceFileError', `The file holds run ${clash.run.id}, which is still going on here; nothing was imported.`);
  // A run kept here that changed after the file's copy (an export made while it went on) stays as it is.
  const fresh = reading.traces.filter(({ run }) => {
    const here = stored.get(run.id);
    return !here || here.updatedAt <= run.updatedAt;
  });
  const traces: StoredTrace[] = [];
  const now = Date.now();
  // What a file says of its own import is never read: a file can be written by hand.
  for (const { run: { importedAt: _claimed, ...run }, steps } of fresh) {
    // A run exported while it went on did not go on here: stored as running, it could never be deleted.
    // It ended, as far as anyone here knows, when it was last written, as a run the worker lost does.
    // An ended run whose file gives no end ended, as far as anyone knows, then too.
    const ended = run.outcome === undefined ? { ...run, outcome: 'interrupted' as const, endedAt: run.updatedAt } : { ...run, endedAt: run.endedAt ?? run.updatedAt };
    // A file from an older version keeps the whole address; here it is kept as a new run keeps it,
    // on the site its address is on.
    const kept = { ...ended, url: traceAddress(ended.url), origin: siteOfTraceAddress(ended.url, ended.origin) };
    // Retention counts what a run takes, never what a file says it takes.
    // Nor what it says of its steps: the list counts those the run holds.
    const counted = { ...kept, stepCount: steps.reduce((highest, { step }) => Math.max(highest, step), 0), callMarks: callMarksOf(steps) };
    // Marked as come from a file, unless it is the run here as it is (an export imported back):
    // a run recorded in this browser stays unmarked, one imported before keeps when it was.
    const here = stored.get(run.id);
    const importedAt = here?.updatedAt === run.updatedAt && (await storedAs(store, counted, steps)) ? here.importedAt : now;
    const marked = importedAt === undefined ? counted : { ...counted, importedAt };
    traces.push({ run: { ...marked, sizeBytes: measureTrace({ run: marked, steps }) }, steps });
    await nextSlice();
  }
  await store.putTraces(traces);
  return {
    imported: traces.length,
    replaced: traces.filter(({ run }) => stored.has(run.id)).length,
    // Of those, the ones here as last changed when the file's copy was: the same file imported again.
    unchanged: traces.filter(({ run }) => stored.get(run.id)?.updatedAt === run.updatedAt).length,
    kept: reading.traces.length - traces.length,
    runIds: reading.traces.map(({ run }) => run.id),
  };
}

/** Whether the store holds this run and its steps as they are, where and how much it takes aside. */
async function storedAs(store: TraceStore, run: Omit<TraceRun, 'sizeBytes'>, steps: readonly TraceStep[]): Promise<boolean> {
  const here = await store.getTrace(run.id);
  // What is worked out from the steps (a run recorded before marks were kept has none) is not content.
  const content = ({ importedAt: _when, sizeBytes: _size, callMarks: _marks, ...rest }: Partial<TraceRun>, ofSteps: readonly TraceStep[]) => canonicalJson({ run: rest, steps: ofSteps });
  return here !== undefined && content(here.run, here.steps) === content(run, steps);
}

async function replayTabs(background: TraceServiceBackground): Promise<ReplayTab[]> {
  // A private window's tabs stay out of sight: the viewer would show their addresses and titles
  // in a normal window, and a replay would carry a normal window's run into them.
  const allTabIds = await background.listTabIds();
  const isPrivate = await Promise.all(allTabIds.map((tabId) => background.isPrivateTab(tabId)));
  const tabIds = allTabIds.filter((_tabId, index) => !isPrivate[index]);
  const lists = await Promise.all(tabIds.map((tabId) => background.getTabTools(tabId).catch(() => undefined)));
  return tabIds.flatMap((tabId, index) => {
    const list = lists[index];
    if (!list || list.tools.length === 0) return [];
    return [{ tabId, url: list.url, origin: list.origin, ...(list.title ? { title: list.title } : {}), toolCount: list.tools.length }];
  });
}

function failure(name: string, message: string): TraceResponse {
  return { ok: false, error: { name, message } };
}

/** What a change of the stored runs answers, once open viewers are told of it. */
async function announcedAfter<T>(change: Promise<T>): Promise<T> {
  const result = await change;
  announceRunsChanged();
  return result;
}
