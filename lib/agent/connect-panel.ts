import { errorMessage } from '../messaging/error-message';
import { panelMessageSchema, type PanelMessage } from './agent-port-protocol';
import { safePost, type PanelPort } from './panel-port';

/** A panel's port as it connects: what it sends is heard, and so is its going away. */
export type ConnectingPanelPort = PanelPort & { onMessage(listener: (message: unknown) => void): void; onDisconnect(listener: () => void): void };

/**
 * Listens to a panel that connected: everything it sends is checked before `handle` acts on it,
 * and what goes wrong is told to that panel in words. A panel that goes away is let go (`leave`).
 */
export function connectPanel(port: ConnectingPanelPort, handle: (port: PanelPort, message: PanelMessage) => Promise<void>, leave: (port: PanelPort) => void): void {
  port.onMessage((raw) => {
    const parsed = panelMessageSchema().safeParse(raw);
    if (!parsed.success) return safePost(port, { type: 'error', message: 'The extension did not understand that message.' });
    const about = 'tabId' in parsed.data ? { tabId: parsed.data.tabId } : {};
    handle(port, parsed.data).catch((error: unknown) => safePost(port, { type: 'error', ...about, message: errorMessage(error) }));
  });
  port.onDisconnect(() => leave(port));
}
