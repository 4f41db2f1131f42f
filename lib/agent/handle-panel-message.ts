import type { PanelMessage } from './agent-port-protocol';
import type { AgentSessionsBackground } from './agent-sessions-background';
import { safePost, type PanelPort } from './panel-port';
import type { TabSession } from './tab-session';

/** What a panel's messages act on: the tabs panels follow, the tabs' sessions and their store, snapshots and the agent's off switch. */
export interface PanelMessageHost {
  background: Pick<AgentSessionsBackground, 'askPageAgain' | 'reloadTab'>;
  panels: Map<number, Set<PanelPort>>;
  /** The port follows no tab any more. */
  leavePanels(port: PanelPort): void;
  /** The tab's session; none for a tab closed meanwhile, whose panel's message acts on nothing. */
  sessionFor(tabId: number): Promise<TabSession | undefined>;
  /** The tab's panel no longer says that an update of the extension ended its chat. */
  forgetEndedChat(tabId: number): void;
  store: { flush(): Promise<void>; urgent(): void };
  sendSnapshot(tabId: number): Promise<void>;
  setAgentOff(tabId: number, origin: string, off: boolean): Promise<void>;
  /** Takes `origin` off the sites whose tools may change the page without asking. */
  stopAllowingSite(tabId: number, origin: string): Promise<void>;
  /** Loads the model ahead of the first request, where it is stored (see `createLoadAhead`). */
  loadAhead?(tabId: number, panel: PanelPort): Promise<void>;
}

/** Acts on one message a panel sent, checked already: what the person asked of the tab's session. */
export async function handlePanelMessage(host: PanelMessageHost, port: PanelPort, message: PanelMessage): Promise<void> {
  const { background, panels, store, sendSnapshot } = host;
  if (message.type === 'heartbeat') return;
  if (message.type === 'subscribe') {
    host.leavePanels(port);
    panels.set(message.tabId, (panels.get(message.tabId) ?? new Set()).add(port));
    if (message.lookAgain) background.askPageAgain?.(message.tabId);
    await sendSnapshot(message.tabId);
    // The panel turned to the tab (not a reconnect): the model loads while the person writes.
    if (message.lookAgain) void host.loadAhead?.(message.tabId, port).catch(() => {});
    return;
  }
  const session = await host.sessionFor(message.tabId);
  if (!session) return;
  switch (message.type) {
    case 'send':
      host.forgetEndedChat(message.tabId);
      return session.send(message.text.trim()).then(() => store.flush());
    case 'stop':
      return session.stop();
    // Written at once: a worker stopped a moment later must not bring back what the person
    // just cleared, nor lose the conversation put aside for Undo.
    case 'new-chat':
      host.forgetEndedChat(message.tabId);
      session.clear();
      store.urgent();
      return sendSnapshot(message.tabId);
    case 'undo-new-chat':
      // Nothing to bring back (a request was sent since, or another panel undid it first): the
      // panel is told, and its snapshot no longer offers Undo.
      if (session.undoClear()) store.urgent();
      else safePost(port, { type: 'error', tabId: message.tabId, message: 'The earlier chat can no longer be brought back.' });
      return sendSnapshot(message.tabId);
    case 'approve':
      return session.decide(message.callId, message.decision);
    case 'reload-page':
      return background.reloadTab(message.tabId);
    case 'set-agent-off':
      return host.setAgentOff(message.tabId, message.origin, message.off);
    case 'stop-allowing-site':
      return host.stopAllowingSite(message.tabId, message.origin);
  }
}
