import type { PanelMessage } from '../agent/agent-port-protocol';
import type { AgentPort } from './agent-port';

export interface PortConnectionOptions {
  connect: () => AgentPort;
  /** Every message of the current port, unchecked. */
  onMessage: (message: unknown) => void;
  /** After each connect, so the caller can subscribe again. */
  onOpen: () => void;
  /** The port went away; a reconnect is scheduled. */
  onLost: () => void;
  /** The first wait; it doubles after each failed try, up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

export interface PortConnection {
  /** False when there is no open port; the message is not queued. */
  post(message: PanelMessage): boolean;
  /** A message arrived, so the background is alive: the next loss waits the shortest delay again. */
  confirm(): void;
  close(): void;
}

/**
 * Keeps one port to the background open. The service worker is stopped when idle and restarted on
 * demand, which disconnects the port: then this reconnects after a short delay.
 */
export function createPortConnection(options: PortConnectionOptions): PortConnection {
  const firstDelay = options.reconnectDelayMs ?? 400;
  const maxDelay = options.maxReconnectDelayMs ?? 5_000;
  let port: AgentPort | undefined;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  function open(): void {
    timer = undefined;
    if (closed) return;
    let opened: AgentPort;
    try {
      opened = options.connect();
    } catch {
      lose();
      return;
    }
    port = opened;
    opened.onMessage.addListener((message) => {
      if (port === opened) options.onMessage(message);
    });
    opened.onDisconnect.addListener(() => {
      if (port === opened) lose();
    });
    options.onOpen();
  }

  function lose(): void {
    port = undefined;
    if (closed || timer !== undefined) return;
    options.onLost();
    const delay = Math.min(firstDelay * 2 ** failures, maxDelay);
    failures += 1;
    timer = setTimeout(open, delay);
  }

  open();
  return {
    post(message) {
      if (!port) return false;
      try {
        port.postMessage(message);
        return true;
      } catch {
        // Posting to a port whose service worker just stopped throws; treat it as a disconnect.
        lose();
        return false;
      }
    },
    confirm() {
      failures = 0;
    },
    close() {
      closed = true;
      clearTimeout(timer);
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
