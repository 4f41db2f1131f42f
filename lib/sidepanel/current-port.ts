import type { PanelMessage } from '../agent/agent-port-protocol';
import type { AgentPort } from './agent-port';

/**
 * The connection's port of the moment. Only it is heard: a port replaced after a reconnect may
 * still deliver a message or its disconnect, which belong to no one now. A post that throws counts
 * as the port's loss, since a port whose service worker just stopped throws before it says so.
 */
export function createCurrentPort(onMessage: (message: unknown) => void, onLost: () => void) {
  let port: AgentPort | undefined;
  return {
    listen(opened: AgentPort): void {
      port = opened;
      opened.onMessage.addListener((message) => {
        if (port === opened) onMessage(message);
      });
      opened.onDisconnect.addListener(() => {
        if (port === opened) onLost();
      });
    },
    drop(): void {
      port = undefined;
    },
    /** False when there is no open port, or posting to it threw (then `onLost` was called). */
    send(message: PanelMessage): boolean {
      if (!port) return false;
      try {
        port.postMessage(message);
        return true;
      } catch {
        // Posting to a port whose service worker just stopped throws; treat it as a disconnect.
        onLost();
        return false;
      }
    },
    disconnect(): void {
      const current = port;
      port = undefined;
      try {
        current?.disconnect();
      } catch {
        // Already gone.
      }
    },
  };
}
