import type { PanelMessage } from '../agent/agent-port-protocol';
import type { AgentPort } from './agent-port';
import { createCurrentPort } from './current-port';
import { createReconnectBackoff } from './reconnect-backoff';

export interface PortConnectionOptions {
  connect: () => AgentPort;
  /** Every message of the current port, unchecked. */
  onMessage: (message: unknown) => void;
  /** After each connect, so the caller can subscribe again. */
  onOpen: () => void;
  /** The port went away; a reconnect is scheduled. */
  onLost: () => void;
  /**
   * Whether to connect again at once when the port goes away (default: always). When not, the
   * connection rests, which lets an idle service worker stay stopped, until `wake` or `post`.
   */
  stayConnected?: () => boolean;
  /** The port went away and the connection rests (see `stayConnected`). */
  onRest?: () => void;
  /** The first wait; it doubles after each failed try, up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

export interface PortConnection {
  /** False when there is no open port; the message is not queued. A resting connection opens first. */
  post(message: PanelMessage): boolean;
  /** Opens a resting connection (which calls `onOpen`); true when it did. */
  wake(): boolean;
  /** A message arrived, so the background is alive: the next loss waits the shortest delay again. */
  confirm(): void;
  close(): void;
}

/**
 * Keeps one port to the background. The service worker is stopped when idle and restarted on
 * demand, which disconnects the port: then this reconnects after a short delay, or, when the
 * caller need not stay connected, rests until it is woken or has something to send.
 */
export function createPortConnection(options: PortConnectionOptions): PortConnection {
  const backoff = createReconnectBackoff(options.reconnectDelayMs ?? 400, options.maxReconnectDelayMs ?? 5_000);
  // The handler is read at each message, as before this part had a file of its own.
  const current = createCurrentPort((message) => options.onMessage(message), () => lose());
  let closed = false;
  let resting = false;

  function open(): void {
    resting = false;
    backoff.ran();
    if (closed) return;
    let opened: AgentPort;
    try {
      opened = options.connect();
    } catch {
      // The extension itself is unreachable (updated or reloaded): that is no rest.
      lose(true);
      return;
    }
    current.listen(opened);
    options.onOpen();
  }

  function lose(failedToOpen = false): void {
    current.drop();
    if (closed || backoff.waiting || resting) return;
    if (!failedToOpen && options.stayConnected?.() === false) {
      resting = true;
      backoff.reset();
      options.onRest?.();
      return;
    }
    options.onLost();
    backoff.schedule(open);
  }

  open();
  return {
    post(message) {
      if (resting) open();
      if (current.send(message)) return true;
      // A port whose worker just stopped throws before it says so: one that may rest now opens
      // again at once for this message, which the person is waiting on.
      if (!resting) return false;
      open();
      return current.send(message);
    },
    wake() {
      if (!resting || closed) return false;
      open();
      return true;
    },
    confirm() {
      backoff.reset();
    },
    close() {
      closed = true;
      backoff.cancel();
      current.disconnect();
    },
  };
}
