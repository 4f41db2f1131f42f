import { batch, computed, signal } from '@preact/signals';
import type { ToolOutput } from '@webmcp-agents/chat';
import {
  defaultInstructions,
  defaultMaxTools,
  fitShownTools,
  hermesFormat,
  rankToolsWithScores,
  searchScorer,
  systemPromptRoom,
  type ShownTool,
  type ToolScorer,
} from '@webmcp-agents/local-agent';
import { assumedContextTokens } from '@/lib/agent/fit-history';
import { toolsForAgent } from '@/lib/registry/tools-for-agent';
import { checkToolResult, type ResultCheck } from '@/lib/devtools/check-tool-result';
import { diffToolLists, isAnotherDocument, type ToolChange } from '@/lib/devtools/diff-tool-lists';
import { lintTools, type LintFinding } from '@/lib/devtools/lint-tools';
import { toolListJson } from '@/lib/devtools/tool-list-json';
import { errorMessage } from '@/lib/messaging/error-message';
import type { Channel } from '@/lib/messaging/port-channel';
import type { InspectorEvent, InspectorRequest } from '@/lib/messaging/inspector-protocol';
import { toolTargetOf } from '@/lib/registry/tool-target';
import type { PageTool, TabTools } from '@/lib/registry/types';
import type { PageResult } from '@/lib/webmcp/read-page-result';

/** A run started by hand from the inspector. */
export interface RunState {
  runId: string;
  /** The tool's name, for a result shown after its card is gone. */
  name: string;
  running: boolean;
  /**
   * When it finished, and how many listings of the tab's tools had come by then: the next listing,
   * soon after, without its tool says the run took its page away.
   */
  finished?: { at: number; listing: number };
  output?: ToolOutput;
  durationMs?: number;
  /** What the page a form's run loaded gives as its result, where it gives one. */
  pageResult?: PageResult;
  /** The result against the tool's output schema, where it has one. */
  resultCheck?: ResultCheck;
  /** The document the tool ran in, where the browser names documents. */
  documentId?: string;
}

/** The result of a run that ended as its page went, told apart from the cards. */
export interface LeftRun {
  runId: string;
  name: string;
  output: ToolOutput;
  pageResult?: PageResult;
  /** The address of the page listed when the result came. */
  url: string | undefined;
}

export type InspectorChannel = Channel<InspectorRequest, InspectorEvent>;

/** The key of a tool in the inspector: its name in its frame. */
export const toolKey = (tool: Pick<PageTool, 'frameId' | 'name'>): string => `${tool.frameId}:${tool.name}`;

/** A run's time limit, as the agent's setting allows it. */
export const minTimeoutSeconds = 1;
export const maxTimeoutSeconds = 600;

const changeLogLength = 200;
/** How long tools the page took away all at once wait for the next page's before they are logged as removed. */
const heldRemovalMs = 2_000;
const reconnectDelayMs = 200;

/**
 * The devtools inspector's state for one tab. It holds a channel to the background, reconnecting
 * when the service worker restarts, and keeps the change log between readings.
 * Components read its signals; only its methods write them.
 */
export class InspectorModel {
  /** undefined while loading; null when the tab offers nothing. */
  readonly tabTools = signal<TabTools | null | undefined>(undefined);
  readonly changes = signal<ToolChange[]>([]);
  private heldRemoval?: { tools: readonly PageTool[]; url: string | undefined; at: number; timer: ReturnType<typeof setTimeout> };
  readonly runs = signal<Record<string, RunState>>({});
  readonly connected = signal(false);
  readonly query = signal('');
  readonly copyStatus = signal('');
  /**
   * A run that ended as its page went (it navigated or reloaded it): the next list no longer has
   * its tool in that document, so its card cannot show the result.
   */
  readonly leftRun = signal<LeftRun | undefined>(undefined);
  /** How long a run may take before the page's signal aborts; the agent's setting once read. */
  readonly timeoutSeconds = signal(30);
  readonly tools = computed(() => this.tabTools.value?.tools ?? []);
  readonly findingsByTool = computed(() => groupFindings(lintTools(this.tools.value)));
  /** Words the list of tools is narrowed to (by name, title or description), and whether to show only tools with notes. */
  readonly filter = signal('');
  readonly onlyWithNotes = signal(false);
  /** The tools the list shows, in the page's order. */
  readonly shownTools = computed(() => {
    const words = this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const findings = this.findingsByTool.value;
    return this.tools.value.filter((tool) => {
      if (this.onlyWithNotes.value && !(findings.get(toolKey(tool))?.length)) return false;
      const text = `${tool.name} ${tool.title ?? ''} ${tool.description}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
  });
  /** The ranker the agent uses (set from the settings); the extension's default until they are read. */
  readonly scorer = signal<ToolScorer | undefined>(searchScorer);
  /** The tools the agent would choose from: its own list, one per name, frames labelled. */
  readonly agentTools = computed(() => (this.tabTools.value ? toolsForAgent(this.tabTools.value).tools : []));
  /** The schema the agent checks a call of `tool` against, and whose compact form the model reads. */
  agentSchemaOf(tool: PageTool): PageTool['inputSchema'] {
    return this.agentTools.value.find((candidate) => candidate.name === tool.name && candidate.frameId === tool.frameId)?.inputSchema ?? tool.inputSchema;
  }
  /**
   * What the agent would be shown, in the prompt's order (best first, or the page's when all fit),
   * as it runs with the default model: fitted to a 4,096-token context (see `fitShownTools`).
   */
  readonly preview = computed(() => {
    if (this.query.value.trim() === '') return { ranked: 0, shown: [] };
    const ranked = rankToolsWithScores(this.agentTools.value, this.query.value, { max: defaultMaxTools, scorer: this.scorer.value });
    const promptFor = (shown: readonly ShownTool[]) => hermesFormat.systemPrompt(shown.map(({ tool }) => tool), defaultInstructions);
    const { shown } = fitShownTools(ranked, systemPromptRoom(assumedContextTokens, this.query.value), promptFor);
    return { ranked: ranked.length, shown };
  });
  readonly ranking = computed(() => this.preview.value.shown);
  /** The most tools a step shows the model: the agent keeps runLocalAgent's default. */
  readonly maxTools = defaultMaxTools;
  private channel: InspectorChannel | undefined;
  private runCount = 0;
  /** How many listings of the tab's tools have come. */
  private listings = 0;
  /** Requests made while the service worker restarts wait here for the new channel. */
  private waiting: InspectorRequest[] = [];

  constructor(
    readonly tabId: number,
    private readonly connect: () => InspectorChannel,
  ) {}

  open(): void {
    const opened = this.connect();
    this.channel = opened;
    opened.onMessage((event) => this.receive(event));
    opened.onDisconnect(() => {
      if (this.channel !== opened) return;
      this.channel = undefined;
      this.connected.value = false;
      this.failRunningRuns('The extension restarted before the tool answered.');
      // The service worker was stopped (idle, or restarted): come back to it for live updates.
      setTimeout(() => this.open(), reconnectDelayMs);
    });
    this.connected.value = true;
    opened.post({ type: 'inspect', tabId: this.tabId });
    const queued = this.waiting;
    this.waiting = [];
    queued.forEach((request) => opened.post(request));
  }

  runTool(tool: PageTool, args: Record<string, unknown>): void {
    this.runCount += 1;
    const runId = `run-${this.runCount}`;
    const { documentId } = toolTargetOf(tool);
    this.leftRun.value = undefined;
    this.runs.value = { ...this.runs.value, [toolKey(tool)]: { runId, name: tool.name, running: true, ...(documentId !== undefined ? { documentId } : {}) } };
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

  stopRun(tool: PageTool): void {
    const run = this.runs.value[toolKey(tool)];
    if (run?.running) this.send({ type: 'cancel-run', runId: run.runId });
  }

  async copyToolList(write: (text: string) => Promise<void>): Promise<void> {
    const current = this.tabTools.value;
    if (!current) return;
    // Emptied first, so the same words after a second copy are announced again.
    this.copyStatus.value = '';
    try {
      await write(toolListJson(current));
      this.copyStatus.value = `Copied ${current.tools.length} tools as JSON.`;
    } catch (error) {
      this.copyStatus.value = `Could not copy: ${errorMessage(error)}`;
    }
  }

  private send(request: InspectorRequest): void {
    if (this.channel && this.connected.value) this.channel.post(request);
    else this.waiting.push(request);
  }

  private receive(event: InspectorEvent): void {
    if (event.type === 'run-result') {
      const [key, run] = Object.entries(this.runs.value).find(([, entry]) => entry.runId === event.runId) ?? [];
      if (!key || !run) return;
      const finished = { at: Date.now(), listing: this.listings };
      const tool = this.tools.value.find((candidate) => toolKey(candidate) === key);
      const resultCheck = tool && checkToolResult(tool, event.output, event.structuredContent);
      this.runs.value = {
        ...this.runs.value,
        [key]: { ...run, running: false, finished, output: event.output, durationMs: event.durationMs, ...(resultCheck ? { resultCheck } : {}) },
      };
      // The page said goodbye before the result came: its card is gone already.
      if (!listedIn(this.tools.value, key, run.documentId)) this.leftRun.value = leftRunOf(run, event.output, this.tabTools.value?.url);
      return;
    }
    if (event.type === 'run-page-result') {
      const [key, run] = Object.entries(this.runs.value).find(([, entry]) => entry.runId === event.runId) ?? [];
      // Its card may have gone with the old page already, and the word of it with it.
      if (key && run) this.runs.value = { ...this.runs.value, [key]: { ...run, pageResult: event.pageResult } };
      if (this.leftRun.value?.runId === event.runId) this.leftRun.value = { ...this.leftRun.value, pageResult: event.pageResult };
      return;
    }
    if (event.tabId !== this.tabId) return;
    const previous = this.tabTools.value;
    batch(() => {
      // The first reading is the baseline; the log tells what changed after it.
      if (previous !== undefined) this.logListChange(previous, event.tabTools);
      this.tabTools.value = event.tabTools;
      const tools = event.tabTools?.tools ?? [];
      // A run that ended since the last listing, a moment ago, whose tool the page no longer lists there.
      const listing = this.listings;
      this.listings += 1;
      const justEnded = (run: RunState) => run.finished?.listing === listing && Date.now() - run.finished.at <= leftRunWindowMs;
      const left = Object.entries(this.runs.value)
        .filter(([key, run]) => run.output && justEnded(run) && !listedIn(tools, key, run.documentId))
        .at(-1)?.[1];
      if (left?.output) this.leftRun.value = leftRunOf(left, left.output, event.tabTools?.url);
      // The page moved on again: what the run left behind is no longer news.
      else if (this.leftRun.value && this.leftRun.value.url !== event.tabTools?.url) this.leftRun.value = undefined;
      this.runs.value = withoutOtherDocuments(this.runs.value, tools);
    });
  }

  /**
   * Logs what changed from `previous` to `next`. A reload or a navigation is one line, then what
   * the new page offers differently: the old page's tools go all at once a moment before the new
   * page's come, so tools taken away all at once wait a moment for them (see heldRemovalMs).
   */
  private logListChange(previous: TabTools | null, next: TabTools | null | undefined): void {
    const after = next?.tools ?? [];
    const now = Date.now();
    const held = this.heldRemoval;
    if (held) {
      if (after.length === 0) return;
      this.dropHeldRemoval();
      if (isAnotherDocument(held.tools, after)) {
        // Newest first: the page's line heads what its page changed.
        this.logChanges(diffToolLists(held.tools, after, now));
        this.logPageChange(held.url, next!);
      } else {
        this.logChanges(diffToolLists(held.tools, [], held.at));
        this.logChanges(diffToolLists([], after, now));
      }
      return;
    }
    const before = previous?.tools ?? [];
    if (before.length > 0 && after.length === 0) {
      const timer = setTimeout(() => {
        const removed = this.heldRemoval;
        this.heldRemoval = undefined;
        if (removed) this.logChanges(diffToolLists(removed.tools, [], removed.at));
      }, heldRemovalMs);
      this.heldRemoval = { tools: before, url: previous?.url, at: now, timer };
      return;
    }
    this.logChanges(diffToolLists(before, after, now));
    if (next && isAnotherDocument(before, after)) this.logPageChange(previous?.url, next);
  }

  private logPageChange(url: string | undefined, next: TabTools): void {
    this.logChanges([{ kind: url === next.url ? 'reloaded' : 'navigated', name: next.url, frameId: 0, at: Date.now() }]);
  }

  private dropHeldRemoval(): void {
    if (this.heldRemoval) clearTimeout(this.heldRemoval.timer);
    this.heldRemoval = undefined;
  }

  private logChanges(found: ToolChange[]): void {
    if (found.length > 0) this.changes.value = [...found, ...this.changes.value].slice(0, changeLogLength);
  }

  private failRunningRuns(text: string): void {
    const next = { ...this.runs.value };
    for (const [key, run] of Object.entries(next)) if (run.running) next[key] = { ...run, running: false, output: { text, isError: true } };
    this.runs.value = next;
  }
}

function leftRunOf(run: RunState, output: ToolOutput, url: string | undefined): LeftRun {
  return { runId: run.runId, name: run.name, output, url, ...(run.pageResult ? { pageResult: run.pageResult } : {}) };
}

/** How soon after a run its tool must leave the list for the run to count as having taken its page away. */
const leftRunWindowMs = 5_000;

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

function groupFindings(findings: readonly LintFinding[]): Map<string, LintFinding[]> {
  const grouped = new Map<string, LintFinding[]>();
  for (const finding of findings) grouped.set(toolKey(finding), [...(grouped.get(toolKey(finding)) ?? []), finding]);
  return grouped;
}
