import type { PageResult } from '../webmcp/read-page-result';
import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import type { ModelUsage, ToolScorer } from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import type { ToolTarget } from '../registry/tool-target';
import type { Settings } from '../settings';
import type { TraceRecorder } from '../traces/trace-recorder';
import type { TabClaim } from '../service-worker/tab-drivers';

/** What a tab offers the agent right now. */
export interface TabToolList {
  url: string;
  origin: string;
  /** The tab's title, as the page set it (capped, untrusted): only ever shown as text, never put in a prompt. */
  title?: string;
  tools: readonly ToolDescriptor[];
  /** The tools the page offered that the agent refused (a name it does not take, a frame not allowed tools, a limit passed), with why. */
  dropped?: readonly { name: string; reason: string }[];
}

/**
 * Everything a tab's session needs from outside: the page, the settings, the engine, the trace.
 * The background passes the real one; tests pass their own.
 */
export interface AgentWorld {
  loadSettings(): Promise<Settings>;
  getTabTools(tabId: number): Promise<TabToolList | undefined>;
  /** The address of the tab's top-frame document as the browser tells it, where it does. */
  pageAddress?(tabId: number): Promise<string | undefined>;
  /** Whether the tab's page is still loading, as the browser tells it: its tools may come any moment. */
  pageLoading?(tabId: number): Promise<boolean>;
  /**
   * Resolves once the tab's tool list has caught up with what a tool just did to the page, or
   * has not within a ceiling (see `settleCeilingMs`), or `signal` aborted. `firstChangeMs`: how
   * long it waits for the list's first change before it takes the list as settled.
   */
  settleTools(tabId: number, signal: AbortSignal, firstChangeMs?: number): Promise<void>;
  executeTabTool(
    tabId: number,
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number } & ToolTarget,
  ): Promise<ToolOutput>;
  /**
   * The result the page just loaded in the tab's top frame gives (see `readLoadedPageResult`), where
   * it gives one; `documentId`: the document that committed, where the browser named it.
   */
  readLoadedPageResult?(tabId: number, documentId?: string): Promise<PageResult | undefined>;
  /** Loads the engine the settings name, publishing its progress; an error comes back in words. */
  loadEngine(settings: Settings, tabId: number, signal: AbortSignal): Promise<Engine | { error: string }>;
  /** The run that loaded `engine` is over: it may be replaced now (see `EngineHost.load`'s `hold`). */
  releaseEngine(engine: Engine): void;
  reportUsage(tabId: number, usage: ModelUsage): void;
  /** The engine failed in the middle of the tab's reply (the GPU was lost, the server went away); `code` is its `EngineErrorCode`. */
  reportEngineError(tabId: number, message: string, hint?: string, code?: string): void;
  scorerFor(settings: Settings): ToolScorer | undefined;
  isSiteAllowed(tabId: number): Promise<boolean>;
  /** Allows `site`, the one the run asked on, where the tab is on it still (see `sessions-world`). */
  allowSite(tabId: number, site: string): Promise<void>;
  /** The tab is in a private window: its runs are not recorded, and its site is never allowed for good. */
  isPrivateTab(tabId: number): Promise<boolean>;
  recorder: TraceRecorder;
  /** Keeps the service worker from being stopped while a run waits; returns the release. */
  keepAwake(): () => void;
  /** How long a call waits for the person's yes or no before the run ends. */
  approvalWaitMs: number;
  /** A call in the tab waits for the person's yes or no (`true`), or no longer does: the toolbar says so. */
  showAsking?(tabId: number, waits: boolean): void;
  /** Takes the tab for a run, unless a replay from the trace viewer has it (see `createTabDrivers`). */
  takeTab(tabId: number): TabClaim;
  /** Saves the conversation: `urgent` for changes that must survive the worker stopping. */
  persist(urgent?: boolean): void;
}
