import { browser } from 'wxt/browser';
import { agentPortName, type PanelMessage } from '../agent/agent-port-protocol';

/** The part of a `runtime.Port` the panel uses, so the panel model can be driven by a fake in tests. */
export interface AgentPort {
  postMessage(message: PanelMessage): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

/** Opens the side panel's port to the background's agent sessions. */
export function connectAgentPort(): AgentPort {
  const port = browser.runtime.connect({ name: agentPortName });
  // Reading lastError marks it handled, so a service-worker restart logs no "unchecked" warning.
  port.onDisconnect.addListener(() => void browser.runtime.lastError);
  return port;
}
