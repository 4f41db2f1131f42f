/**
 * The private channel between the content script (isolated world) and the bridge script in the
 * page's own world. Both halves start before any page script runs (`document_start`) and pair at
 * once: the content script hands the bridge a random secret in a DOM event that nothing else can
 * be listening to yet. From then on every message travels as an event whose type holds the secret;
 * a page script cannot listen for a type it cannot name, so it can neither read nor forge the
 * traffic by events. What arrives is still checked as page data (see bridge-schemas): the
 * page-world half shares its world with the page, which can change what that half sends by
 * rewriting built-ins it goes through (`Object.prototype.toJSON`), speaking only for itself.
 * This file imports nothing, so the bridge script stays tiny.
 */
export const bridgeChannel = 'webmcp-local-agent/bridge/2';

/** The two public event types of the pairing; each side listens for the other's only until paired. */
export const bridgeHelloType = `${bridgeChannel}:bridge-hello`;
export const extensionHelloType = `${bridgeChannel}:extension-hello`;

/** Content script → bridge. */
export type ToBridgeMessage =
  | { type: 'bridge-start' }
  | { type: 'bridge-list' }
  | { type: 'call-start'; callId: string; name: string; args: Record<string, unknown> }
  | { type: 'call-abort'; callId: string }
  /** The next submit event is the agent's: it gets `agentInvoked` and `respondWith` (see setupMainWorldBridge). */
  | { type: 'form-arm'; callId: string }
  /** That submit was dispatched: answer with what `respondWith` was given, or that it was not called. */
  | { type: 'form-disarm'; callId: string };

/** Bridge → content script. */
export type ToExtensionMessage =
  | { type: 'bridge-ready' }
  | { type: 'bridge-tools'; tools: unknown[]; unreadable: Array<{ name: unknown; reason: string }> }
  | { type: 'call-result'; callId: string; result: string | null }
  | { type: 'call-error'; callId: string; error: { name: string; message: string } }
  | { type: 'form-no-response'; callId: string }
  /** The page gave `respondWith()` a promise: its result follows as a call-result or call-error. */
  | { type: 'form-pending'; callId: string };

/** One half of the channel. */
export interface BridgeEnd<Outgoing> {
  /** Sends a message; before pairing it waits (up to 100; later ones are dropped), and is sent once paired. */
  post(message: Outgoing): void;
  /** Whether the two halves have found each other. */
  readonly paired: boolean;
  /** Stops listening. */
  close(): void;
}

// Taken when the script starts, before any page script can replace them: the page-world half
// shares its globals with the page, which could otherwise watch what goes through them.
const frameWindow = globalThis as unknown as Partial<EventTarget>;
const addListener = frameWindow.addEventListener;
const removeListener = frameWindow.removeEventListener;
const dispatchEvent = frameWindow.dispatchEvent;
const NativeCustomEvent = globalThis.CustomEvent;
const readDetail = NativeCustomEvent && Object.getOwnPropertyDescriptor(NativeCustomEvent.prototype, 'detail')?.get;
const { apply } = Reflect;
const { stringify, parse } = JSON;

const secretPattern = /^[0-9a-f]{32}$/;
const queueLimit = 100;

/** The content script's half: makes the secret, and gives it to the first bridge that says hello. */
export function openExtensionEnd(onMessage: (message: unknown) => void): BridgeEnd<ToBridgeMessage> {
  const secret = randomToken();
  const end = createEnd<ToBridgeMessage>('to-bridge', 'to-extension', onMessage);
  // Listening first: the bridge may send as soon as it has the secret.
  end.listen(secret);
  const onBridgeHello = (): void => {
    listen(bridgeHelloType, onBridgeHello, false);
    // Dispatched synchronously: once this returns, the bridge has the secret and listens.
    send(extensionHelloType, secret);
    end.open(secret);
  };
  listen(bridgeHelloType, onBridgeHello, true);
  // A bridge that started first is listening now and says hello back at once, which pairs us.
  send(extensionHelloType, secret);
  return withClose(end, () => listen(bridgeHelloType, onBridgeHello, false));
}

/** The page-world half: says hello, and takes the secret from the first answer. */
export function openBridgeEnd(onMessage: (message: unknown) => void): BridgeEnd<ToExtensionMessage> {
  const end = createEnd<ToExtensionMessage>('to-extension', 'to-bridge', onMessage);
  const onExtensionHello = (event: Event): void => {
    const secret = detailOf(event);
    if (typeof secret !== 'string' || !secretPattern.test(secret)) return;
    listen(extensionHelloType, onExtensionHello, false);
    end.listen(secret);
    end.open(secret);
    send(bridgeHelloType, '');
  };
  listen(extensionHelloType, onExtensionHello, true);
  send(bridgeHelloType, '');
  return withClose(end, () => listen(extensionHelloType, onExtensionHello, false));
}

/** The end, whose `close` also stops waiting for a hello. */
function withClose<Outgoing>(end: ReturnType<typeof createEnd<Outgoing>>, stopWaiting: () => void): BridgeEnd<Outgoing> {
  return {
    get paired() {
      return end.paired;
    },
    post: (message) => end.post(message),
    close() {
      stopWaiting();
      end.close();
    },
  };
}

type Direction = 'to-bridge' | 'to-extension';

function createEnd<Outgoing>(outgoing: Direction, incoming: Direction, onMessage: (message: unknown) => void) {
  let inbox: string | undefined;
  let outbox: string | undefined;
  const waiting: string[] = [];
  const receive = (event: Event): void => {
    const detail = detailOf(event);
    if (typeof detail !== 'string') return;
    let message: unknown;
    try {
      message = parse(detail);
    } catch {
      return;
    }
    onMessage(message);
  };
  return {
    get paired() {
      return outbox !== undefined;
    },
    /** Starts hearing the other half under the secret. */
    listen(secret: string): void {
      if (inbox) return;
      inbox = `${bridgeChannel}:${secret}:${incoming}`;
      listen(inbox, receive, true);
    },
    /** Starts sending under the secret, once the other half listens; what waited goes first. */
    open(secret: string): void {
      if (outbox) return;
      outbox = `${bridgeChannel}:${secret}:${outgoing}`;
      for (const text of waiting.splice(0)) send(outbox, text);
    },
    post(message: Outgoing): void {
      const text: string = stringify(message);
      if (outbox) send(outbox, text);
      else if (waiting.length < queueLimit) waiting.push(text);
    },
    close(): void {
      if (inbox) listen(inbox, receive, false);
    },
  };
}

function listen(type: string, listener: (event: Event) => void, on: boolean): void {
  const method = on ? addListener : removeListener;
  if (method) apply(method, frameWindow, [type, listener]);
}

/** Dispatched synchronously: only listeners present at this moment hear it. */
function send(type: string, detail: string): void {
  const init: CustomEventInit<string> = { __proto__: null, detail } as CustomEventInit<string>;
  if (dispatchEvent) apply(dispatchEvent, frameWindow, [new NativeCustomEvent(type, init)]);
}

function detailOf(event: Event): unknown {
  try {
    return readDetail ? apply(readDetail, event, []) : (event as CustomEvent<unknown>).detail;
  } catch {
    return undefined;
  }
}

/** 128 random bits as hex: the bridge's secret, or an id a page cannot guess. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
