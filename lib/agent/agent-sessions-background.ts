import type { ToolScorer } from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import type { EnginePreview } from '../engines/engine-preview';
import type { ServerModelMemory } from './server-model-memory';
import type { TabDrivers } from '../service-worker/tab-drivers';
import type { Settings, SettingsChange } from '../settings';
import type { TraceRecorder } from '../traces/trace-recorder';
import type { AgentWorld, TabToolList } from './agent-world';

/** What the background gives the sessions: the settings, the tabs and their tools, the trace recorder. Tests pass their own. */
export interface AgentSessionsBackground {
  loadSettings(): Promise<Settings>;
  updateSettings(change: SettingsChange): Promise<Settings>;
  getTabTools(tabId: number): Promise<TabToolList | undefined>;
  onTabToolsChanged(listener: (tabId: number) => void): () => void;
  /** Whether the extension's content script answers in the tab's page (see `pageScriptAnswers`). */
  pageAnswers(tabId: number): Promise<boolean>;
  /**
   * Asks every frame of the tab to look for tools again, those no event announced included (a
   * polyfill set up late, a form in a shadow root attached quietly): a panel turning to the tab.
   */
  askPageAgain?(tabId: number): void;
  /**
   * The tab's top frame, where the browser tells it, for a page the extension cannot read: its
   * address, and whether its page did not load, so Chrome shows its error page there (offline, a
   * host that does not resolve). One read answers both.
   */
  topFrame?(tabId: number): Promise<{ url: string; errorOccurred?: boolean } | null | undefined>;
  /** Whether the tab's page is still loading, as the browser tells it (`tabs.get`'s status). */
  tabLoading?(tabId: number): Promise<boolean>;
  /** Whether Chrome unloaded the tab's page to save memory (`tabs.get`'s `discarded`). */
  tabAsleep?(tabId: number): Promise<boolean>;
  /** What WebLLM's first request would load or why it cannot run here (see `previewWebLlm`). */
  previewWebLlm?(model: string): Promise<EnginePreview>;
  /** Whether Chrome's built-in model can run here (see `previewPromptApi`). */
  previewPromptApi?(): Promise<EnginePreview>;
  /** The model a server's engine loaded last, named before a new worker's first load (see `createServerModelMemory`). */
  serverModels?: ServerModelMemory;
  reloadTab(tabId: number): Promise<void>;
  /**
   * Whether the tab is in a private (incognito) window, where nothing may outlast the window: its
   * runs leave no trace and its panel saves no site (see `isPrivateTab`).
   */
  isPrivateTab(tabId: number): Promise<boolean>;
  executeTabTool: AgentWorld['executeTabTool'];
  readLoadedPageResult?: AgentWorld['readLoadedPageResult'];
  showAsking?: AgentWorld['showAsking'];
  scorerFor(settings: Settings): ToolScorer | undefined;
  recorder: TraceRecorder;
  /** Keeps on disk which tabs have a chat, for after an update (see `createTabsWithChatsNote`). */
  noteTabsWithChats?(tabIds: number[]): Promise<void>;
  /** Keeps the service worker up while a run waits (see AgentWorld); default: nothing to keep. */
  keepAwake?(): () => void;
  /** How long a call waits for the person's answer; default 5 minutes. */
  approvalWaitMs?: number;
  /**
   * Tells resting panels (idle ones let their port go with the worker) that a tab's session
   * changed, or with no tab that everything may have: see `PanelWake`.
   */
  wakePanels?(tabId?: number): void;
  /** Makes the engine the settings ask for; default: `createEngine`. */
  createEngine?(settings: Settings): Engine;
  /** Who runs tools in which tab, shared with the trace viewer's replays; default: runs never wait for a replay. */
  tabDrivers?: TabDrivers;
}
