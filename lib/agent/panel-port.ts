import type { SessionMessage } from './agent-port-protocol';

/** What the sessions use of a panel's port: posting to it. */
export interface PanelPort {
  postMessage(message: SessionMessage): void;
}

/** Posts to a panel that may have closed meanwhile: a closed one gets nothing. */
export function safePost(port: PanelPort, message: SessionMessage): void {
  try {
    port.postMessage(message);
  } catch {
    // The panel closed between the check and the post; it will get a snapshot when it comes back.
  }
}
