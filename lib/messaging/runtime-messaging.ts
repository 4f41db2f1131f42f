import { browser, type Browser } from 'wxt/browser';
import { z } from 'zod/mini';
import { errorPayloadSchema } from './error-payload';
import { lazySchema } from './lazy-schema';
import { toErrorPayload } from './to-error-payload';
import { protocol, type ToBackground, type ToContent } from './protocol';
import { namedError } from './named-error';

type MessageMap = Record<string, { message: () => z.core.$ZodType; reply: () => z.core.$ZodType }>;
type MessageOf<M extends MessageMap, K extends keyof M> = z.output<ReturnType<M[K]['message']>>;
type ReplyOf<M extends MessageMap, K extends keyof M> = z.output<ReturnType<M[K]['reply']>>;
export type MessageSender = Browser.runtime.MessageSender;

/** Every one-shot message travels as `{protocol, type, data}`; replies as `{ok, value | error}`. */
const envelopeSchema = lazySchema(() => z.object({ protocol: z.literal('webmcp-local-agent'), type: z.string(), data: z.unknown() }));
const replySchema = lazySchema(() =>
  z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: errorPayloadSchema() })]),
);

/** A content script asks the background; resolves with the checked reply, rejects on failure. */
export function sendToBackground<K extends keyof ToBackground>(
  type: K,
  data: MessageOf<ToBackground, K>,
): Promise<ReplyOf<ToBackground, K>> {
  const envelope = { protocol: 'webmcp-local-agent', type, data };
  let sent: Promise<unknown>;
  try {
    sent = browser.runtime.sendMessage(envelope);
  } catch (error) {
    // A script whose extension was reloaded or updated gets "Extension context invalidated" thrown
    // at once: it comes back as a failed send like any other, for the caller's catch.
    return Promise.reject(error);
  }
  return sent.then((reply: unknown) => readReply(protocol.toBackground[type].reply(), reply) as ReplyOf<ToBackground, K>);
}

/**
 * Whether a failed send means this script's extension was reloaded, updated or removed: Chrome
 * says "Extension context invalidated", or has taken the runtime away altogether.
 */
export function isExtensionGone(error: unknown): boolean {
  return browser.runtime?.id === undefined || /context invalidated/i.test(String((error as Error | undefined)?.message));
}

/**
 * The background asks a tab's content script (one frame, or every frame when none is given). With
 * a `documentId` (Chrome 106+) the browser delivers only to that document, and fails otherwise.
 */
export function sendToContent<K extends keyof ToContent>(
  tabId: number,
  type: K,
  data: MessageOf<ToContent, K>,
  options: { frameId?: number; documentId?: string } = {},
): Promise<ReplyOf<ToContent, K>> {
  const envelope = { protocol: 'webmcp-local-agent', type, data };
  const target = {
    ...(options.frameId === undefined ? {} : { frameId: options.frameId }),
    ...(options.documentId === undefined ? {} : { documentId: options.documentId }),
  };
  return browser.tabs
    .sendMessage(tabId, envelope, target)
    .then((reply: unknown) => readReply(protocol.toContent[type].reply(), reply) as ReplyOf<ToContent, K>);
}

type Handlers<M extends MessageMap> = {
  [K in keyof M]?: (data: MessageOf<M, K>, sender: MessageSender) => ReplyOf<M, K> | Promise<ReplyOf<M, K>>;
};

/** The background answers content scripts. Returns a function that stops listening. */
export function handleBackgroundMessages(handlers: Handlers<ToBackground>): () => void {
  return listen(protocol.toBackground, handlers);
}

/** A content script answers the background. Returns a function that stops listening. */
export function handleContentMessages(handlers: Handlers<ToContent>): () => void {
  return listen(protocol.toContent, handlers);
}

function listen<M extends MessageMap>(map: M, handlers: Handlers<M>): () => void {
  const listener = (message: unknown, sender: MessageSender, sendResponse: (reply: unknown) => void): boolean => {
    const envelope = envelopeSchema().safeParse(message);
    if (!envelope.success) return false;
    const type = envelope.data.type as keyof M;
    // Own entries only: a type such as "constructor" must not find what every object inherits.
    if (!Object.hasOwn(map, type) || !Object.hasOwn(handlers, type)) return false;
    const handler = handlers[type];
    const entry = map[type];
    if (!handler || !entry) return false;
    const data = z.safeParse(entry.message(), envelope.data.data);
    if (!data.success) {
      sendResponse({ ok: false, error: { name: 'TypeError', message: `A "${String(type)}" message had the wrong shape.` } });
      return true;
    }
    Promise.resolve()
      .then(() => handler(data.data as MessageOf<M, typeof type>, sender))
      .then(
        (value) => sendResponse({ ok: true, value: value ?? null }),
        (error: unknown) => sendResponse({ ok: false, error: toErrorPayload(error) }),
      );
    // Answered asynchronously: keep the channel open.
    return true;
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}

function readReply(schema: z.core.$ZodType, reply: unknown): unknown {
  const parsed = replySchema().safeParse(reply);
  if (!parsed.success) throw namedError('NoReplyError', 'The other side sent no reply.');
  if (!parsed.data.ok) throw namedError(parsed.data.error.name, parsed.data.error.message);
  const value = z.safeParse(schema, parsed.data.value);
  if (!value.success) throw namedError('TypeError', 'The reply had the wrong shape.');
  return value.data;
}
