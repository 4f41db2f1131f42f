import type { EndedChats } from './ended-chats';
import type { StoredSession } from './session-store';
import type { TabSession } from './tab-session';

/** What a tab's new id takes over: its session or stored conversation, what its panel was told, the store. */
export interface ReplaceTabHost {
  ready: Promise<unknown>;
  sessions: Map<number, TabSession>;
  /** The conversations an earlier worker stored, once read. */
  stored(): Map<number, StoredSession> | undefined;
  panels: Map<number, unknown>;
  endedChats: Pick<EndedChats, 'move'>;
  /** The tab's title, for tabs waiting for its run, is forgotten. */
  forgetTitle(tabId: number): void;
  store: { urgent(): void };
  resendSnapshot(tabId: number): void;
  /** Whether Chrome unloaded the tab's page to save memory (see `AgentSessionsBackground.tabAsleep`). */
  tabAsleep?(tabId: number): Promise<boolean>;
}

/**
 * Chrome gave the tab a new id: a tab discarded to save memory (and brought back later), or a page
 * prerendered out of sight swapped in. Its chat goes with it, so the panel finds it there; a run
 * on the page that went ends, as on a reload, or saying the tab went to sleep.
 */
export async function replaceTab(host: ReplaceTabHost, removedTabId: number, addedTabId: number): Promise<void> {
  const { sessions } = host;
  await host.ready;
  const session = sessions.get(removedTabId);
  const asleep = session?.running === true && (await host.tabAsleep?.(addedTabId).catch(() => false)) === true;
  if (asleep) session?.stop('stopped', 'Stopped: Chrome put the tab to sleep to save memory. Wake the page, then ask again.');
  else session?.stop('navigated');
  await session?.whenIdle();
  const stored = host.stored();
  const conversation = session?.stored() ?? stored?.get(removedTabId);
  sessions.delete(removedTabId);
  host.forgetTitle(removedTabId);
  stored?.delete(removedTabId);
  host.panels.delete(removedTabId);
  host.endedChats.move(removedTabId, addedTabId);
  // A panel may have turned to the new id first: it made an empty session there, which gives way.
  const there = sessions.get(addedTabId);
  if (conversation && (!there || (there.turns.length === 0 && !there.running))) {
    sessions.delete(addedTabId);
    stored?.set(addedTabId, conversation);
  }
  host.store.urgent();
  host.resendSnapshot(addedTabId);
}
