import { batch, computed, signal } from '@preact/signals';
import {
  defaultInstructions,
  defaultMaxTools,
  defaultReplyTokens,
  fitShownTools,
  hermesFormat,
  rankScoredTools,
  scoreTools,
  searchScorer,
  systemPromptRoom,
  toolsNotShown,
  type NotShownTool,
  type ShownTool,
  type ToolScorer,
} from '@webmcp-agents/local-agent';
import { assumedContextTokens } from '@/lib/agent/fit-history';
import { siteOfReport } from '@/lib/registry/report-site';
import { toolsForAgent } from '@/lib/registry/tools-for-agent';
import { agentOffOn } from '@/lib/settings/agent-off-on';
import type { ToolChange } from '@/lib/devtools/diff-tool-lists';
import { lintTools, type LintFinding } from '@/lib/devtools/lint-tools';
import { toolListJson } from '@/lib/devtools/tool-list-json';
import { plural } from '@/lib/text/plural';
import { errorMessage } from '@/lib/messaging/error-message';
import type { Channel } from '@/lib/messaging/port-channel';
import type { InspectorEvent, InspectorRequest } from '@/lib/messaging/inspector-protocol';
import type { PageTool, TabTools } from '@/lib/registry/types';
import { HandRuns } from './hand-runs';
import { RunForms, type FormState, type RunForm } from './run-forms';
import { toolKey } from './tool-key';
import { ToolChangeLog } from './tool-change-log';


export type InspectorChannel = Channel<InspectorRequest, InspectorEvent>;

/**
 * What the agent would be shown for the request typed: `ranked` tools made the ranking, `shown` of
 * them fit the context; the others the page offers are `notShownCount`, the best of them (see
 * toolsNotShown) in `notShown`, `crowded` where the ranking kept it and the context had no room.
 */
export interface AgentPreviewModel {
  ranked: number;
  shown: readonly ShownTool[];
  notShownCount: number;
  notShown: ReadonlyArray<NotShownTool & { crowded?: true }>;
}

const reconnectDelayMs = 200;

/**
 * The devtools inspector's state for one tab. It holds a channel to the background, reconnecting
 * when the service worker restarts, and keeps the change log between readings.
 * Components read its signals; only its methods write them.
 */
export class InspectorModel {
  /** undefined while loading; null when the tab offers nothing. */
  readonly tabTools = signal<TabTools | null | undefined>(undefined);
  /**
   * Whether the extension's content script runs in the tab's page: the background asks it where it
   * holds no listing of the tab (a page that reported, even no tools, has it).
   */
  private readonly pageScriptAnswers = signal<boolean | undefined>(undefined);
  /**
   * The tab lists no tools and the extension's content script does not run in its page: one open
   * since before the extension came. Not a page whose tools the extension read and refused.
   */
  readonly mayNeedReload = computed(() => {
    const tabTools = this.tabTools.value;
    return !tabTools?.tools.length && !tabTools?.dropped.length && this.pageScriptAnswers.value === false;
  });
  readonly tools = computed(() => this.tabTools.value?.tools ?? []);
  readonly changes = signal<ToolChange[]>([]);
  /** How many changes there were since the inspector opened: the log keeps only the newest. */
  readonly changeCount = signal(0);
  private readonly changeLog = new ToolChangeLog(this.changes, this.changeCount);
  private readonly handRuns = new HandRuns(this.tabTools, this.tools, (request) => this.send(request));
  readonly runs = this.handRuns.runs;
  private readonly runForms = new RunForms();
  readonly connected = signal(false);
  readonly query = signal('');
  readonly copyStatus = signal('');
  /** A run that ended as its page went (see HandRuns). */
  readonly leftRun = this.handRuns.leftRun;
  /** How long a run may take (see HandRuns). */
  readonly timeoutSeconds = this.handRuns.timeoutSeconds;
  readonly findingsByTool = computed(() => groupFindings(lintTools(this.tools.value)));
  /** Words the list of tools is narrowed to (by name, title or description), and whether to show only tools with notes. */
  readonly filter = signal('');
  /** What is typed in the filter and waits for typing to pause before it applies. */
  readonly filterTyped = signal<string | undefined>(undefined);
  readonly onlyWithNotes = signal(false);
  /** The tools the list shows, in the page's order. */
  readonly shownTools = computed(() => {
    // Full-width letters (typed with a Japanese input method, or in a tool's text) read as their plain letters.
    const words = this.filter.value.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean);
    const findings = this.findingsByTool.value;
    const texts = this.searchTexts.value;
    return this.tools.value.filter((tool) => {
      if (this.onlyWithNotes.value && !(findings.get(toolKey(tool))?.length)) return false;
      const text = texts.get(tool) ?? '';
      return words.every((word) => text.includes(word));
    });
  });
  /** Per tool, the text the filter reads, folded once per listing rather than at every key. */
  private readonly searchTexts = computed(
    () => new Map(this.tools.value.map((tool) => [tool, `${tool.name} ${tool.title ?? ''} ${tool.description}`.normalize('NFKC').toLowerCase()])),
  );
  /** The ranker the agent uses (set from the settings); the extension's default until they are read. */
  readonly scorer = signal<ToolScorer | undefined>(searchScorer);
  /** The most tokens a reply may take, which the prompt keeps room for (set from the settings). */
  readonly replyTokens = signal(defaultReplyTokens);
  /** The sites where the agent is off (set from the settings). */
  readonly disabledSites = signal<readonly string[]>([]);
  /** The page's site where the agent is off on it (it then sees none of its tools), else undefined. */
  readonly agentOffSite = computed(() => {
    const tabTools = this.tabTools.value;
    const site = tabTools ? siteOfReport(tabTools) : undefined;
    return site !== undefined && agentOffOn(this.disabledSites.value, site) ? site : undefined;
  });
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
  readonly preview = computed((): AgentPreviewModel => {
    if (this.query.value.trim() === '') return { ranked: 0, shown: [], notShownCount: 0, notShown: [] };
    const tools = this.agentTools.value;
    const scores = scoreTools(tools, this.query.value, { scorer: this.scorer.value });
    const ranked = rankScoredTools(tools, scores, defaultMaxTools);
    const promptFor = (shown: readonly ShownTool[]) => hermesFormat.systemPrompt(shown.map(({ tool }) => tool), defaultInstructions);
    const { shown } = fitShownTools(ranked, systemPromptRoom(assumedContextTokens, this.query.value, [], this.replyTokens.value), promptFor);
    const shownNames = new Set(shown.map(({ tool }) => tool.name));
    const crowded = new Set(ranked.flatMap(({ tool }) => (shownNames.has(tool.name) ? [] : [tool.name])));
    const { notShownCount, notShown } = toolsNotShown(tools, scores, shownNames);
    return { ranked: ranked.length, shown, notShownCount, notShown: notShown.map((tool) => (crowded.has(tool.name) ? { ...tool, crowded: true } : tool)) };
  });
  readonly ranking = computed(() => this.preview.value.shown);
  /** The most tools a step shows the model: the agent keeps runLocalAgent's default. */
  readonly maxTools = defaultMaxTools;
  private channel: InspectorChannel | undefined;
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
      this.handRuns.failRunning('The extension restarted before the tool answered.');
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
    this.handRuns.run(tool, args);
  }

  /** The tool's run form as the developer left it: kept here, not in its card, which a filter or a listing may take away. */
  runFormOf(tool: PageTool): RunForm {
    return this.runForms.of(toolKey(tool));
  }

  setRunFormOpen(tool: PageTool, open: boolean): void {
    this.runForms.setOpen(toolKey(tool), open);
  }

  saveRunForm(tool: PageTool, state: FormState): void {
    this.runForms.save(toolKey(tool), state);
  }

  /** Sets how long runs may take, within bounds (see HandRuns.setTimeoutSeconds); returns the seconds in use. */
  setTimeoutSeconds(seconds: number): number {
    return this.handRuns.setTimeoutSeconds(seconds);
  }

  stopRun(tool: PageTool): void {
    this.handRuns.stop(tool);
  }

  async copyToolList(write: (text: string) => Promise<void>): Promise<void> {
    const current = this.tabTools.value;
    if (!current) return;
    // Emptied first, so the same words after a second copy are announced again.
    this.copyStatus.value = '';
    try {
      await write(toolListJson(current));
      this.copyStatus.value = `Copied ${plural(current.tools.length, 'tool')} as JSON.`;
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
      this.handRuns.receiveResult(event);
      return;
    }
    if (event.type === 'run-page-result') {
      this.handRuns.receivePageResult(event);
      return;
    }
    if (event.tabId !== this.tabId) return;
    if (event.type === 'page-script') {
      this.pageScriptAnswers.value = event.answers;
      return;
    }
    const previous = this.tabTools.value;
    batch(() => {
      // What the page script's answer said was of the page before.
      if (pageOf(previous) !== pageOf(event.tabTools)) this.pageScriptAnswers.value = undefined;
      // The first reading is the baseline; the log tells what changed after it.
      if (previous !== undefined) this.changeLog.logListChange(previous, event.tabTools);
      this.tabTools.value = event.tabTools;
      // "Copied 3 tools" no longer says what the list holds once it changed.
      if (this.copyStatus.value && !sameList(previous, event.tabTools)) this.copyStatus.value = '';
      this.handRuns.afterListing(event.tabTools);
      this.runForms.afterListing(new Set((event.tabTools?.tools ?? []).map(toolKey)));
    });
  }
}

/**
 * The page a report came from: its top document where the browser names it, which stays while a
 * single-page app moves the address; else its address. No report (none yet, or none from the tab)
 * names none.
 */
function pageOf(tabTools: TabTools | null | undefined): string | null | undefined {
  return tabTools ? (tabTools.documentId ?? tabTools.url) : tabTools;
}

function sameList(a: TabTools | null | undefined, b: TabTools | null | undefined): boolean {
  return a === b || (Boolean(a) && Boolean(b) && toolListJson(a!) === toolListJson(b!));
}

function groupFindings(findings: readonly LintFinding[]): Map<string, LintFinding[]> {
  const grouped = new Map<string, LintFinding[]>();
  for (const finding of findings) grouped.set(toolKey(finding), [...(grouped.get(toolKey(finding)) ?? []), finding]);
  return grouped;
}
