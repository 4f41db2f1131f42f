import { hearBackground } from '../messaging/background-broadcast';
import { z } from 'zod';
import { agentPortName, panelWakeSchema, type PanelMessage } from '../agent/agent-port-protocol';
import { lazySchema } from '../messaging/lazy-schema';
import { connectNamedChannel } from '../messaging/port-channel';

/** The part of a `runtime.Port` the panel uses, so the panel model can be driven by a fake in tests. */
export interface AgentPort {
  postMessage(message: PanelMessage): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

/** Opens the side panel's port to the background's agent sessions. */
export function connectAgentPort(): AgentPort {
  // The panel model checks every message itself (and counts the ones it drops): no second check here.
  const channel = connectNamedChannel<PanelMessage, unknown>(agentPortName, lazySchema(() => z.unknown()));
  return {
    postMessage: (message) => channel.post(message),
    onMessage: { addListener: (listener) => channel.onMessage(listener) },
    onDisconnect: { addListener: (listener) => channel.onDisconnect(listener) },
    disconnect: () => channel.disconnect(),
  };
}

/**
 * Calls `listener` when the background says a tab's session changed while no panel following it
 * held a port. Only the background's word counts: a content script's message names a tab.
 */
export function listenForPanelWake(listener: (tabId: number | undefined) => void): () => void {
  return hearBackground((message) => {
    const parsed = panelWakeSchema().safeParse(message);
    if (parsed.success) listener(parsed.data.tabId);
  });
}
