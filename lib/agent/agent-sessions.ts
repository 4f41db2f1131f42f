import { recorderKeepsTraces } from '../traces/trace-recorder';
import type { Settings } from '../settings';
import type { PanelMessage } from './agent-port-protocol';
import type { AgentSessionsBackground } from './agent-sessions-background';
import { createAgentOff } from './agent-off';
import { createAskingNews } from './asking-news';
import { connectPanel, type ConnectingPanelPort } from './connect-panel';
import { createEndedChats } from './ended-chats';
import { createEngineHost } from './engine-host';
import { createLoadAhead } from './load-ahead';
import { createLoadForOptions } from './load-for-options';
import type { FollowedStatus } from './serve-model-status';
import { handlePanelMessage } from './handle-panel-message';
import { createModelPreviews } from './model-previews';
import { safePost, type PanelPort } from './panel-port';
import { createProseBatcher } from './prose-batcher';
import { replaceTab } from './replace-tab';
import { createSavedSessions } from './saved-sessions';
import type { ChatEnding, Turn } from './session-state';
import type { StoredSession } from './session-store';
import { createSessionsWorld } from './sessions-world';
import { createTabSnapshots } from './tab-snapshots';
import { TabSession } from './tab-session';
import { createWaitingTabNames } from './waiting-tab-names';

export type { AgentSessionsBackground } from './agent-sessions-background';
export type { PanelPort } from './panel-port';

/** Every tab's agent session, the panels watching them, and the one engine they share. */
export function createAgentSessions(background: AgentSessionsBackground) {
  const sessions = new Map<number, TabSession>();
  const panels = new Map<number, Set<PanelPort>>();
  // A tab no panel follows any more is let go: every settings change redraws, and wakes, each tab listed.
  const leavePanels = (port: PanelPort) => {
    for (const [tabId, set] of panels) if (set.delete(port) && set.size === 0) panels.delete(tabId);
  };
  const saved = createSavedSessions(sessions, background.noteTabsWithChats);
  const { store, stored } = saved;
  const endedChats = createEndedChats();
  // What an earlier worker left is read back before any session is made or changed. A run it left
  // going, which this start cuts off, may have waited for the person's answer: the panels of other
  // tabs, resting since their ports closed with that worker, would go on saying so, so every panel
  // is woken to ask again.
  const startedAt = Date.now();
  const ready = Promise.all([saved.load(), endedChats.load()]).then(() => {
    if (cutOffSince(saved.stored(), startedAt)) background.wakePanels?.();
  });
  const { publish } = createProseBatcher((tabId, message) => {
    // A run going on in the tab (started from another panel of it, say) is news to a resting panel.
    if (message.type === 'turn') background.wakePanels?.(tabId);
    panels.get(tabId)?.forEach((port) => safePost(port, message));
  });
  // Pages other than the panels that follow the engine's status for a while (see `createLoadForOptions`, `serveModelStatus`).
  const statusWatchers = new Set<() => void>();
  const publishEngineStatus = () => {
    for (const tabId of panels.keys()) publish(tabId, { type: 'engine', tabId, engine: engineStatusFor(tabId) });
    // A watcher's failure (a page gone) never keeps the panels from hearing.
    for (const watcher of statusWatchers) {
      try {
        watcher();
      } catch (error) {
        console.warn('A page following the engine could not be told:', error);
      }
    }
  };
  // A load stopped part way: what the first request downloads is asked again, and told.
  const engines = createEngineHost(publishEngineStatus, background.createEngine, { loadStopped: () => modelsChanged() });
  const waitingTabs = createWaitingTabNames({ sessions, panels, engines, background, publishEngineStatus });
  const { engineStatusFor } = waitingTabs;
  const previews = createModelPreviews(background);

  const world = createSessionsWorld(background, { engines, previews, store, publishEngineStatus, askingChanged: (tabId) => askingNews.askingChanged(tabId) });
  const loadAhead = createLoadAhead({ loadSettings: () => background.loadSettings(), getTabTools: (tabId) => background.getTabTools(tabId), engines, previews });

  // Tabs closed (or replaced) in this worker's life; Chrome never gives a tab's id to another. A
  // panel's message for one that comes late, or that waited for the stored sessions as it closed,
  // acts on nothing: no run, no chat of a closed tab stored again, no worker woken for every tab closing.
  const closedTabs = new Set<number>();
  /** The tab's session, made where it has none yet; none for a closed tab. */
  const liveSessionFor = async (tabId: number): Promise<TabSession | undefined> => {
    await ready;
    if (closedTabs.has(tabId)) return undefined;
    let session = sessions.get(tabId);
    if (!session) {
      session = new TabSession(tabId, world, (message) => publish(tabId, message), stored()?.get(tabId));
      sessions.set(tabId, session);
      // Its own title, which another tab's of the same page must not be named by in its panel: once
      // known, what its panel says of the other tabs is said again where it changes.
      void waitingTabs.noteTitle(tabId).then(() => askingNews.ownTitleKnown(tabId));
    }
    return session;
  };
  // What a snapshot shows: a closed tab's is an empty session, kept nowhere.
  const sessionFor = async (tabId: number): Promise<TabSession> => (await liveSessionFor(tabId)) ?? new TabSession(tabId, world, () => {});

  const askingNews = createAskingNews({ panels, waitingTabs, engines, resendSnapshot: (tabId) => snapshots.resend(tabId), publishEngineStatus });
  const snapshots = createTabSnapshots({
    background,
    panels,
    sessionFor,
    engines,
    previews,
    engineStatusFor,
    endedChat: endedChats.get,
    askingElsewhere: askingNews.askingElsewhere,
    publish,
  });
  const sendSnapshot = snapshots.send;
  const resendSnapshot = snapshots.resend;

  // What the panels say the first request loads, and downloads, asked again: the models stored changed
  // (see `modelsChanged` below, and a load at the options page's asking) or a load stopped part way.
  const modelsChanged = () => {
    previews.clear();
    for (const tabId of panels.keys()) resendSnapshot(tabId);
  };
  const watchStatus = (watcher: () => void) => {
    statusWatchers.add(watcher);
    return () => void statusWatchers.delete(watcher);
  };
  const loadForOptions = createLoadForOptions({
    loadSettings: () => background.loadSettings(),
    engines,
    watchStatus,
    ...(background.keepAwake ? { keepAwake: background.keepAwake } : {}),
    loaded: modelsChanged,
  });

  const { setAgentOff, stopAllowingSite, stopRunsWhereOff } = createAgentOff({ background, sessions, sendSnapshot });

  const handle = (port: PanelPort, message: PanelMessage) =>
    handlePanelMessage({ background, panels, leavePanels, sessionFor: liveSessionFor, forgetEndedChat: endedChats.forget, store, sendSnapshot, setAgentOff, stopAllowingSite, loadAhead }, port, message);

  return {
    /** A panel connected: everything it sends is checked before anything acts on it. */
    connect(port: ConnectingPanelPort) {
      connectPanel(port, handle, leavePanels);
    },
    /**
     * The tab's tools changed (its title comes with them): its panels redraw, those of tabs waiting
     * for its run name it anew, and a call waiting for the person whose tool changed or went asks no more.
     */
    toolsChanged(tabId: number) {
      resendSnapshot(tabId);
      sessions.get(tabId)?.lookAgainAtQuestions();
      void waitingTabs.noteTitle(tabId);
    },
    /**
     * The settings changed (the options page, or "allow on this site"): what panels show of them is
     * redrawn, and a call waiting for the person on a site now allowed runs.
     */
    settingsChanged(settings?: Settings) {
      if (settings) engines.settingsChanged(settings);
      previews.clear();
      void stopRunsWhereOff().catch(() => {});
      for (const session of sessions.values()) session.lookAgainAtQuestions();
      for (const tabId of panels.keys()) resendSnapshot(tabId);
      background.wakePanels?.();
    },
    /**
     * The options page downloaded Chrome's built-in model or deleted stored ones: what the panels
     * say the first request loads, and downloads, is asked again.
     */
    modelsChanged,
    /** The options page's "Download now", and WebLLM's "Try it" (see `createLoadForOptions`). */
    loadForOptions,
    /** The engine's status, which the options page follows while it shows WebLLM's download (see `serveModelStatus`). */
    engineStatus: { status: () => engines.status, watchStatus } satisfies FollowedStatus,
    /**
     * Whether the sessions need to hear tabs navigate: a panel is connected (it shows its tab's
     * page), or a run goes on (a new page ends it). A chat at rest does not.
     */
    needsNavigations(): boolean {
      return panels.size > 0 || [...sessions.values()].some((session) => session.running);
    },
    /**
     * Whether the sessions keep something of a tab that must go, or move, with it: a panel
     * connected to one, or a chat (kept by an earlier worker, or told that an update ended it).
     */
    async keepTabs(): Promise<boolean> {
      await ready;
      if (panels.size > 0 || endedChats.any()) return true;
      if ([...sessions.values()].some((session) => session.hasChat)) return true;
      // A conversation kept by an earlier worker, that no session took up yet.
      return [...(stored() ?? [])].some(([tabId, entry]) => !sessions.has(tabId) && (entry.turns.length > 0 || Boolean(entry.previous?.turns.length)));
    },
    /** The tab's page finished loading: its content script, if any, answers now. */
    pageLoaded: resendSnapshot,
    /**
     * A new document committed in the tab's top frame (`documentId`, where the browser names it;
     * `byPerson`, where the browser says the person brought it: see navigationByPerson).
     */
    navigated(tabId: number, documentId?: string, byPerson = false) {
      sessions.get(tabId)?.documentChanged(documentId, byPerson);
    },
    /** Chrome gave the tab a new id (a tab discarded, a page prerendered): its chat goes with it (see `replaceTab`). */
    tabReplaced(removedTabId: number, addedTabId: number): Promise<void> {
      closedTabs.add(removedTabId);
      return replaceTab(
        { ready, sessions, stored, panels, endedChats, forgetTitle: waitingTabs.forget, store, resendSnapshot, ...(background.tabAsleep ? { tabAsleep: background.tabAsleep } : {}) },
        removedTabId,
        addedTabId,
      );
    },
    /**
     * The extension was updated (`cause` "update") or reloaded, which cleared every chat: the tabs
     * that had one, as the last worker noted them, say so in their panels.
     */
    async chatsEnded(tabIds: readonly number[], cause: ChatEnding['cause']) {
      await ready;
      const tracesKept = await recorderKeepsTraces(background.recorder);
      for (const tabId of tabIds) {
        // A chat that survived (the worker only restarted) has not ended.
        if (!sessions.get(tabId)?.turns.length && !stored()?.get(tabId)?.turns.length) endedChats.set(tabId, { cause, tracesKept });
      }
      await endedChats.save();
      for (const tabId of tabIds) resendSnapshot(tabId);
    },
    tabClosed(tabId: number) {
      closedTabs.add(tabId);
      endedChats.forget(tabId);
      sessions.get(tabId)?.stop('stopped', 'Stopped: the tab was closed.');
      sessions.delete(tabId);
      waitingTabs.forget(tabId);
      engines.tabClosed(tabId);
      panels.delete(tabId);
      askingNews.forget(tabId);
      // A closing tab may be what woke the worker: forget its stored conversation once it is read.
      void ready.then(() => {
        stored()?.delete(tabId);
        store.schedule();
      });
    },
  };
}

/** Whether a stored chat has a run marked interrupted as it was read back, at `since` or later (see `restoredSession`). */
function cutOffSince(stored: ReadonlyMap<number, StoredSession> | undefined, since: number): boolean {
  const cut = (turns: readonly Turn[] = []) => turns.some((turn) => turn.outcome === 'interrupted' && (turn.endedAt ?? 0) >= since);
  return [...(stored?.values() ?? [])].some((session) => cut(session.turns) || cut(session.previous?.turns));
}
