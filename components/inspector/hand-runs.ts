// Apart from the inspector's model: what a result, a page's result and a new listing do to the runs started by hand.
import { signal, type ReadonlySignal } from '@preact/signals';
import type { ToolOutput } from '@webmcp-agents/chat';
import { checkToolResult, type ResultCheck } from '@/lib/devtools/check-tool-result';
import type { InspectorEvent, InspectorRequest } from '@/lib/messaging/inspector-protocol';
import { sameTool } from '@/lib/registry/tool-now';
import { toolTargetOf } from '@/lib/registry/tool-target';
import type { PageTool, TabTools } from '@/lib/registry/types';
import type { LoadedPage } from '@/lib/webmcp/read-page-result';
import { toolKey } from './tool-key';

/** A run started by hand from the inspector. */
export interface RunState {
  runId: string;
  /** The tool's name, for a result shown after its card is gone. */
  name: string;
  /** The tool as listed when the run started: the page may change it meanwhile. */
  ran: PageTool;
  /** The page listed another tool of its name by the time the result came: the result is the one that ran's. */
  changedWhileRunning?: true;
  /** The frame that offered the tool: 0, the page's own. */
  frameId: number;
  running: boolean;
  /**
   * When it finished, and how many listings of the tab's tools had come by then: the next listing,
   * soon after, without its tool says the run took its page away.
   */
  finished?: { at: number; listing: number };
  output?: ToolOutput;
  durationMs?: number;
  /** What the page a form's run loaded gives as its result, where it gives one; the page a script's tool loaded. */
  pageResult?: LoadedPage;
  /** The result against the tool's output schema, where it has one. */
  resultCheck?: ResultCheck;
  /** The document the tool ran in, where the browser names documents. */
  documentId?: string;
  /** The address of the page listed when it was started. */
  url?: string;
}

/** The result of a run that ended as its page went, told apart from the cards. */
export interface LeftRun {
  runId: string;
  /** Its tool's card's key (`toolKey`). */
  key: string;
  name: string;
  /** The frame that offered the tool: 0, the page's own. */
  frameId: number;
  output: ToolOutput;
  pageResult?: LoadedPage;
  /** The address of the page listed when the result came. */
  url: string | undefined;
  /**
   * The page stayed, and took the tool away itself: its document still lists other tools, or it
   * lists none at the same address. Said so, and forgotten once the page lists the tool again.
   */
  removedByPage?: boolean;
}

/** A run's time limit, as the agent's setting allows it. */
export const minTimeoutSeconds = 1;
export const maxTimeoutSeconds = 600;

/**
 * How soon after a run its tool must leave the list for the run to count as having taken its page
 * away. A page a tool sends away says goodbye at once (a form's post, a script's navigation a few
 * hundred ms later); seconds later it is likelier the person who followed a link.
 */
const leftRunWindowMs = 2_000;

type RunResultEvent = Extract<InspectorEvent, { type: 'run-result' }>;
type RunPageResultEvent = Extract<InspectorEvent, { type: 'run-page-result' }>;

/**
 * The runs started by hand from the inspector, and the result of one that took its page away. It
 * reads the tab's listing from the model's signals and sends its requests through `send`.
 */
export class HandRuns {
  readonly runs = signal<Record<string, RunState>>({});
  /**
   * A run that ended as its page went (it navigated or reloaded it), or as the page took its tool
   * away: the next list no longer has its tool in that document, so its card cannot show the result.
   */
  readonly leftRun = signal<LeftRun | undefined>(undefined);
  /** How long a run may take before the page's signal aborts; the agent's setting once read. */
  readonly timeoutSeconds = signal(30);
  private runCount = 0;
  /** How many listings of the tab's tools have come. */
  private listings = 0;

  constructor(
    private readonly tabTools: ReadonlySignal<TabTools | null | undefined>,
    private readonly tools: ReadonlySignal<readonly PageTool[]>,
    private readonly send: (request: InspectorRequest) => void,
  ) {}

  run(tool: PageTool, args: Record<string, unknown>): void {
    this.runCount += 1;
    const runId = `run-${this.runCount}`;
    const { documentId } = toolTargetOf(tool);
    this.leftRun.value = undefined;
    const url = this.tabTools.value?.url;
    this.runs.value = {
      ...this.runs.value,
      [toolKey(tool)]: { runId, name: tool.name, ran: tool, frameId: tool.frameId, running: true, ...(documentId !== undefined ? { documentId } : {}), ...(url !== undefined ? { url } : {}) },
    };
    const timeoutMs = clampTimeout(this.timeoutSeconds.value) * 1000;
    // In the frame and the document listed: a frame that moved on runs nothing.
    this.send({ type: 'run-tool', runId, name: tool.name, args, timeoutMs, ...toolTargetOf(tool) });
  }

  /**
   * Sets how long runs may take, brought into the agent's own bounds (within them, a timer's
   * delay never overflows); something not a number changes nothing. Returns the seconds in use.
   */
  setTimeoutSeconds(seconds: number): number {
    if (Number.isFinite(seconds)) this.timeoutSeconds.value = clampTimeout(seconds);
    return this.timeoutSeconds.value;
  }

  stop(tool: PageTool): void {
    const run = this.runs.value[toolKey(tool)];
    if (run?.running) this.send({ type: 'cancel-run', runId: run.runId });
  }

  receiveResult(event: RunResultEvent): void {
    const [key, run] = Object.entries(this.runs.value).find(([, entry]) => entry.runId === event.runId) ?? [];
    if (!key || !run) return;
    const finished = { at: Date.now(), listing: this.listings };
    // Against the tool that ran: the page may have swapped in another of its name since.
    const resultCheck = checkToolResult(run.ran, event.output, event.structuredContent, event.structuredContentDropped === true);
    const listed = this.tools.value.find((candidate) => toolKey(candidate) === key);
    const changedWhileRunning = listed !== undefined && !sameTool(run.ran, listed);
    this.runs.value = {
      ...this.runs.value,
      [key]: { ...run, running: false, finished, output: event.output, durationMs: event.durationMs, ...(resultCheck ? { resultCheck } : {}), ...(changedWhileRunning ? { changedWhileRunning } : {}) },
    };
    // The page said goodbye before the result came: its card is gone already.
    if (!listedIn(this.tools.value, key, run.documentId)) this.leftRun.value = leftRunOf(key, run, event.output, this.tabTools.value);
  }

  receivePageResult(event: RunPageResultEvent): void {
    const [key, run] = Object.entries(this.runs.value).find(([, entry]) => entry.runId === event.runId) ?? [];
    const pageResult: LoadedPage = event.byScript ? { ...event.pageResult, byScript: true } : event.pageResult;
    // Its card may have gone with the old page already, and the word of it with it.
    if (key && run) this.runs.value = { ...this.runs.value, [key]: { ...run, pageResult } };
    if (this.leftRun.value?.runId === event.runId) this.leftRun.value = { ...this.leftRun.value, pageResult };
  }

  /** Takes in a new listing, `next`, just written to the model's `tabTools` in the same batch. */
  afterListing(next: TabTools | null): void {
    const tools = next?.tools ?? [];
    // A run that ended since the last listing, a moment ago, whose tool the page no longer lists there.
    const listing = this.listings;
    this.listings += 1;
    const justEnded = (run: RunState) => run.finished?.listing === listing && Date.now() - run.finished.at <= leftRunWindowMs;
    const [leftKey, left] = Object.entries(this.runs.value)
      .filter(([key, run]) => run.output && justEnded(run) && !listedIn(tools, key, run.documentId))
      .at(-1) ?? [];
    if (leftKey && left?.output) this.leftRun.value = leftRunOf(leftKey, left, left.output, next);
    else if (this.leftRun.value) this.leftRun.value = stillNews(this.leftRun.value, next);
    this.runs.value = withoutOtherDocuments(this.runs.value, tools);
  }

  failRunning(text: string): void {
    const next = { ...this.runs.value };
    for (const [key, run] of Object.entries(next)) if (run.running) next[key] = { ...run, running: false, output: { text, isError: true } };
    this.runs.value = next;
  }
}

function leftRunOf(key: string, run: RunState, output: ToolOutput, listed: TabTools | null | undefined): LeftRun {
  const removedByPage = pageStayed(run, listed);
  return { runId: run.runId, key, name: run.name, frameId: run.frameId, output, url: listed?.url, ...(run.pageResult ? { pageResult: run.pageResult } : {}), ...(removedByPage ? { removedByPage } : {}) };
}

/** Whether the page a run's tool was listed in is still the one listed, without that tool. */
function pageStayed(run: RunState, listed: TabTools | null | undefined): boolean {
  if (!listed) return false;
  if (run.documentId !== undefined && listed.tools.some((tool) => toolTargetOf(tool).documentId === run.documentId)) return true;
  return listed.tools.length === 0 && run.url !== undefined && listed.url === run.url;
}

/**
 * The word of a run that took its page away, after a later listing: gone once the page has moved on
 * again. Listed while the tab listed nothing (the old page's goodbye came before the new page), it
 * takes the address of the first page listed after, the one the run left to.
 */
function stillNews(leftRun: LeftRun, next: TabTools | null): LeftRun | undefined {
  if (leftRun.url === undefined) return next ? { ...leftRun, url: next.url } : leftRun;
  if (leftRun.url !== next?.url) return undefined;
  // A tool the page took away and lists again has its card back, with the result on it.
  return leftRun.removedByPage && next?.tools.some((tool) => toolKey(tool) === leftRun.key) ? undefined : leftRun;
}

/** Whether the tool a run ran is still listed in the document it ran in. */
function listedIn(tools: readonly PageTool[], key: string, documentId: string | undefined): boolean {
  const tool = tools.find((candidate) => toolKey(candidate) === key);
  return tool !== undefined && (documentId === undefined || toolTargetOf(tool).documentId === documentId);
}

/**
 * The runs still worth showing: a finished run's result is dropped once its tool is listed from
 * another document (the page navigated, maybe to a same-named tool that does something else).
 */
function withoutOtherDocuments(runs: Record<string, RunState>, tools: readonly PageTool[]): Record<string, RunState> {
  const documents = new Map(tools.map((tool) => [toolKey(tool), toolTargetOf(tool).documentId]));
  const stale = Object.entries(runs).filter(
    ([key, run]) => !run.running && run.documentId !== undefined && documents.has(key) && documents.get(key) !== run.documentId,
  );
  if (stale.length === 0) return runs;
  const kept = { ...runs };
  for (const [key] of stale) delete kept[key];
  return kept;
}

function clampTimeout(seconds: number): number {
  return Math.min(maxTimeoutSeconds, Math.max(minTimeoutSeconds, seconds));
}
