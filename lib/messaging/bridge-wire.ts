/**
 * The window-message channel between the content script (isolated world) and the bridge script
 * in the page's own world. Everything here is visible to the page's scripts, which can also post
 * look-alike messages: the content script treats what arrives as page data (see bridge-schemas).
 * This file imports nothing, so the bridge script stays tiny.
 */
export const bridgeChannel = 'webmcp-local-agent/bridge/1';

/** Content script → bridge. */
export type ToBridgeMessage =
  | { type: 'bridge-start' }
  | { type: 'bridge-list' }
  | { type: 'call-start'; callId: string; name: string; args: Record<string, unknown> }
  | { type: 'call-abort'; callId: string };

/** Bridge → content script. */
export type ToExtensionMessage =
  | { type: 'bridge-ready' }
  | { type: 'bridge-tools'; tools: unknown[]; unreadable: Array<{ name: unknown; reason: string }> }
  | { type: 'call-result'; callId: string; result: string | null }
  | { type: 'call-error'; callId: string; error: { name: string; message: string } };

type Direction = 'to-bridge' | 'to-extension';

function post(direction: Direction, message: ToBridgeMessage | ToExtensionMessage): void {
  // The frame posts to itself; '*' because an opaque origin cannot be named as a target.
  window.postMessage({ channel: bridgeChannel, direction, message }, '*');
}

function listen(direction: Direction, handler: (message: unknown) => void): () => void {
  const listener = (event: MessageEvent): void => {
    if (event.source !== window) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return;
    const envelope = data as { channel?: unknown; direction?: unknown; message?: unknown };
    if (envelope.channel !== bridgeChannel || envelope.direction !== direction) return;
    handler(envelope.message);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

export function postToBridge(message: ToBridgeMessage): void {
  post('to-bridge', message);
}

export function postToExtension(message: ToExtensionMessage): void {
  post('to-extension', message);
}

/** The bridge hears the content script (and anything the page posts that looks alike). */
export function listenAsBridge(handler: (message: unknown) => void): () => void {
  return listen('to-bridge', handler);
}

/** The content script hears the bridge (and anything the page posts that looks alike). */
export function listenAsExtension(handler: (message: unknown) => void): () => void {
  return listen('to-extension', handler);
}
