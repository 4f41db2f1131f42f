import { browser, type Browser } from 'wxt/browser';
import { z } from 'zod/mini';
import { isExtensionPage } from './extension-page-sender';

/**
 * A long-lived connection: its name, and the schema each side checks what it receives with. The
 * schemas are asked for when a message arrives, not when the listener is added at the worker's
 * start (see lazySchema).
 */
export interface PortProtocol<ToBackground, ToClient> {
  name: string;
  toBackground: () => z.core.$ZodType<ToBackground>;
  toClient: () => z.core.$ZodType<ToClient>;
}

/** One end of a long-lived connection whose incoming messages are checked against the protocol. */
export interface Channel<Outgoing, Incoming> {
  post(message: Outgoing): void;
  onMessage(listener: (message: Incoming) => void): void;
  onDisconnect(listener: () => void): void;
  disconnect(): void;
}

/** An extension page opens a channel to the background. */
export function connectChannel<ToBackground, ToClient>(port: PortProtocol<ToBackground, ToClient>): Channel<ToBackground, ToClient> {
  return connectNamedChannel(port.name, port.toClient);
}

/** The same for a channel known by its name and what comes back on it (the side panel's agent port). */
export function connectNamedChannel<Outgoing, Incoming>(name: string, incoming: () => z.core.$ZodType<Incoming>): Channel<Outgoing, Incoming> {
  const port = browser.runtime.connect({ name });
  // Reading lastError marks it handled, so a service-worker restart logs no "unchecked" warning.
  port.onDisconnect.addListener(() => void browser.runtime.lastError);
  return wrapPort(port, incoming) as Channel<Outgoing, Incoming>;
}

/**
 * The background accepts channels of one kind, from the extension's own pages only: a content
 * script (which runs inside a web page) is refused.
 */
export function acceptChannels<ToBackground, ToClient>(
  port: PortProtocol<ToBackground, ToClient>,
  onChannel: (channel: Channel<ToClient, ToBackground>, sender: Browser.runtime.MessageSender | undefined) => void,
): () => void {
  return acceptNamedChannels(port.name, port.toBackground, onChannel);
}

export function acceptNamedChannels<Outgoing, Incoming>(
  name: string,
  incoming: () => z.core.$ZodType<Incoming>,
  onChannel: (channel: Channel<Outgoing, Incoming>, sender: Browser.runtime.MessageSender | undefined) => void,
): () => void {
  const listener = (port: Browser.runtime.Port): void => {
    if (port.name !== name) return;
    if (!isExtensionPage(port.sender)) {
      port.disconnect();
      return;
    }
    onChannel(wrapPort(port, incoming) as Channel<Outgoing, Incoming>, port.sender);
  };
  browser.runtime.onConnect.addListener(listener);
  return () => browser.runtime.onConnect.removeListener(listener);
}

/** `incoming` may give a zod/mini or a classic zod schema: both are checked the same way. */
function wrapPort(port: Browser.runtime.Port, incoming: () => z.core.$ZodType): Channel<unknown, unknown> {
  let connected = true;
  port.onDisconnect.addListener(() => {
    connected = false;
  });
  return {
    post(message) {
      // A message posted after the other side left is simply not delivered.
      if (connected) port.postMessage(message);
    },
    onMessage(listener) {
      port.onMessage.addListener((message: unknown) => {
        const parsed = z.safeParse(incoming(), message);
        if (parsed.success) listener(parsed.data);
        else console.warn(`A message on the "${port.name}" channel had the wrong shape.`);
      });
    },
    onDisconnect(listener) {
      port.onDisconnect.addListener(() => listener());
    },
    disconnect() {
      connected = false;
      port.disconnect();
    },
  };
}
