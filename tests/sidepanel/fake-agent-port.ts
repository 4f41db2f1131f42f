import type { PanelMessage } from '@/lib/agent/agent-port-protocol';
import type { AgentPort } from '@/lib/sidepanel/agent-port';

/** A port whose far end is the test: it records what the panel posts and delivers what the test sends. */
export class FakeAgentPort implements AgentPort {
  readonly sent: PanelMessage[] = [];
  disconnected = false;
  private readonly messageListeners: Array<(message: unknown) => void> = [];
  private readonly disconnectListeners: Array<() => void> = [];

  readonly onMessage = { addListener: (listener: (message: unknown) => void) => void this.messageListeners.push(listener) };
  readonly onDisconnect = { addListener: (listener: () => void) => void this.disconnectListeners.push(listener) };

  postMessage(message: PanelMessage): void {
    // A real port throws the same way once its service worker is gone.
    if (this.disconnected) throw new Error('Attempting to use a disconnected port object');
    this.sent.push(message);
  }

  disconnect(): void {
    this.disconnected = true;
  }

  /** The background posts a message to the panel. */
  deliver(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  /** The service worker stops, which disconnects the port. */
  drop(): void {
    this.disconnected = true;
    for (const listener of this.disconnectListeners) listener();
  }
}

/** Hands out a new fake port at each connect, like a background that can restart. */
export function createFakeBackground() {
  const ports: FakeAgentPort[] = [];
  return {
    ports,
    connect: (): FakeAgentPort => {
      const port = new FakeAgentPort();
      ports.push(port);
      return port;
    },
    /** The port the panel uses now. */
    get port(): FakeAgentPort {
      const port = ports.at(-1);
      if (!port) throw new Error('The panel has not connected');
      return port;
    },
  };
}
