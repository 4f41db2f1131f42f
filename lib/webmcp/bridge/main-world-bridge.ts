import { openBridgeEnd, type BridgeEnd, type ToExtensionMessage } from '../../messaging/bridge-wire';
import { toErrorPayload } from '../../messaging/to-error-payload';
import { executeResultString, readProperty, readToolName, toolNotFound, type ToolAdapter } from '../adapters/tool-adapter';
import { cutAndSay } from '../cut-and-say';
import { formWaitsForPerson } from '../form-waits-for-person';
import { toolLimits } from '../tool-limits';
import { createAdapterDiscovery } from './adapter-discovery';
import { copyToolForPosting } from './copy-tool-for-posting';

/**
 * The page-world half of the bridge. It follows polyfilled and older WebMCP contexts, posts their
 * tools to the content script, and runs the calls the content script asks for. It pairs with the
 * content script before any page script runs (see bridge-wire), so only the content script can ask
 * it anything. It holds no extension data: anything it could tell a page script, the page knows.
 */
export function setupMainWorldBridge(): void {
  let started = false;
  let announced = false;
  let postTimer: ReturnType<typeof setTimeout> | undefined;
  const owners = new Map<string, ToolAdapter>();
  const calls = new Map<string, AbortController>();
  const schedulePost = (): void => {
    // Silent until the page has a context to read: most content scripts never hear from it.
    if (!announced) extension.post({ type: 'bridge-ready' });
    announced = true;
    if (!started || postTimer !== undefined) return;
    postTimer = setTimeout(() => {
      postTimer = undefined;
      void postTools(extension, discovery.adapters(), owners);
    }, 20);
  };
  const discovery = createAdapterDiscovery(schedulePost);
  const formResponses = watchAgentSubmits();
  const extension = openBridgeEnd((message) => {
    const type = readProperty(message, 'type');
    if (type === 'bridge-start' || type === 'bridge-list') {
      started = true;
      discovery.discover();
      if (announced) schedulePost();
    } else if (type === 'call-start') {
      void runCall(extension, message, owners, calls);
    } else if (type === 'call-abort') {
      calls.get(String(readProperty(message, 'callId')))?.abort();
    } else if (type === 'form-arm' || type === 'form-disarm') {
      formResponses.handle(type, String(readProperty(message, 'callId')), extension);
    }
  });
  const look = (): void => discovery.discover();
  watchWhileParsing(look);
  lookAfterLoad(look);
}

type ExtensionEnd = BridgeEnd<ToExtensionMessage>;

async function postTools(extension: ExtensionEnd, adapters: readonly ToolAdapter[], owners: Map<string, ToolAdapter>): Promise<void> {
  const listedOwners = new Map<string, ToolAdapter>();
  const tools: unknown[] = [];
  const unreadable: Array<{ name: unknown; reason: string }> = [];
  for (const adapter of adapters) {
    const listed = await adapter.list().catch(() => []);
    for (const tool of listed) {
      const name = readToolName(tool);
      if (name !== undefined && listedOwners.has(name)) continue;
      if (name !== undefined) listedOwners.set(name, adapter);
      const posted = copyToolForPosting(tool);
      if (posted.ok) tools.push(posted.tool);
      // Only text crosses: a name that is a function or symbol would make postMessage throw.
      else unreadable.push({ name: typeof posted.name === 'string' ? posted.name : undefined, reason: posted.reason });
    }
  }
  owners.clear();
  for (const [name, adapter] of listedOwners) owners.set(name, adapter);
  extension.post({ type: 'bridge-tools', tools, unreadable });
}

async function runCall(
  extension: ExtensionEnd,
  message: unknown,
  owners: Map<string, ToolAdapter>,
  calls: Map<string, AbortController>,
): Promise<void> {
  const callId = readProperty(message, 'callId');
  const name = readProperty(message, 'name');
  const args = readProperty(message, 'args');
  if (typeof callId !== 'string' || typeof name !== 'string' || typeof args !== 'object' || args === null) return;
  const controller = new AbortController();
  calls.set(callId, controller);
  try {
    const adapter = owners.get(name);
    if (!adapter) throw toolNotFound(name);
    const running = adapter.execute(name, args as Record<string, unknown>, controller.signal);
    let result: string | null;
    if (waitsForPerson(name)) {
      // The listener for the form's activation goes once the call is answered, either way.
      const done = new AbortController();
      try {
        result = await Promise.race([running, filledForPerson(name, AbortSignal.any([controller.signal, done.signal]))]);
      } finally {
        done.abort();
      }
    } else {
      result = await running;
    }
    extension.post({ type: 'call-result', callId, result });
  } catch (error) {
    const payload = toErrorPayload(error, Infinity);
    extension.post({ type: 'call-error', callId, error: { ...payload, message: cutAndSay(payload.message, toolLimits.errorCharacters) } });
  } finally {
    calls.delete(callId);
  }
}

/**
 * Where the browser has no WebMCP, the extension's own form reader submits a `<form toolname>`
 * from its isolated world, whose properties the page cannot see. For that one submit, armed just
 * before and disarmed just after (dispatch is synchronous), the event gets what the browser would
 * give it in the page's world: `agentInvoked` and `respondWith()`, so a page written for WebMCP
 * (`event.preventDefault(); if (event.agentInvoked) event.respondWith(result)`) gives its result.
 * Heard first: this capture listener is added before any script of the page runs.
 */
function watchAgentSubmits() {
  let armed: { callId: string; seen: boolean; responded?: Promise<unknown>; closed?: boolean } | undefined;
  window.addEventListener(
    'submit',
    (event) => {
      const call = armed;
      if (!call || call.seen) return;
      call.seen = true;
      try {
        Object.defineProperty(event, 'agentInvoked', { value: true, configurable: true });
        Object.defineProperty(event, 'respondWith', {
          configurable: true,
          // As the browser's: only while the event is dispatched, once, and after preventDefault().
          value: (result: unknown) => {
            if (call.closed) throw new DOMException('respondWith() must be called while the submit event is dispatched.', 'InvalidStateError');
            if (call.responded) throw new DOMException('respondWith() was already called for this submit.', 'InvalidStateError');
            if (!event.defaultPrevented) throw new DOMException('Call preventDefault() before respondWith().', 'InvalidStateError');
            call.responded = Promise.resolve(result);
          },
        });
      } catch {
        // An event the page froze: it submits as a plain form.
      }
    },
    { capture: true },
  );
  return {
    handle(type: 'form-arm' | 'form-disarm', callId: string, extension: ExtensionEnd): void {
      if (type === 'form-arm') {
        armed = { callId, seen: false };
        return;
      }
      const call = armed?.callId === callId ? armed : undefined;
      armed = undefined;
      if (call) call.closed = true;
      // Answered at once either way (dispatch is synchronous): a content script that hears nothing
      // back knows this half is not listening (a `document.open()` took its listeners).
      if (!call?.responded) return extension.post({ type: 'form-no-response', callId });
      extension.post({ type: 'form-pending', callId });
      call.responded
        .then((value) => executeResultString(value))
        .then(
          (result) => extension.post({ type: 'call-result', callId, result }),
          (error: unknown) => {
            const payload = toErrorPayload(error, Infinity);
            extension.post({ type: 'call-error', callId, error: { ...payload, message: cutAndSay(payload.message, toolLimits.errorCharacters) } });
          },
        );
    },
  };
}

/** Whether `name` is a `<form toolname>` of this document that the person submits (no `toolautosubmit`). */
function waitsForPerson(name: string): boolean {
  return [...document.querySelectorAll('form[toolname]')].some((form) => form.getAttribute('toolname') === name && !form.hasAttribute('toolautosubmit'));
}

/**
 * A polyfill fills such a form, says so (`toolactivated`, as the browser does) and keeps the call
 * open until the person submits: the call answers then, as the browser's own form tools do.
 */
function filledForPerson(name: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const onActivated = (event: Event): void => {
      if (readProperty(event, 'toolName') !== name) return;
      window.removeEventListener('toolactivated', onActivated);
      resolve(formWaitsForPerson);
    };
    window.addEventListener('toolactivated', onActivated);
    signal.addEventListener('abort', () => window.removeEventListener('toolactivated', onActivated), { once: true });
  });
}

/**
 * Polyfills install themselves in one script and register tools in the next. Mutation records
 * are delivered before the parser runs the next script, so looking on every record while the
 * document is parsed catches an older context before its tools are provided.
 */
function watchWhileParsing(look: () => void): void {
  const observer = new MutationObserver(look);
  observer.observe(document, { childList: true, subtree: true });
  const finish = (): void => {
    observer.disconnect();
    look();
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', finish, { once: true });
  else finish();
}

/** After `load`: at once, once the page's own load handlers ran, and twice more (ms). */
const looksAfterLoadMs = [0, 1_000, 5_000];

/**
 * Polyfills also come after `load`: set up by the page's own load handler (which runs after this
 * one, added at document_start), by a chunk loaded later, or by a tag manager. A few cheap looks
 * catch most; the content script asks for another whenever the background wants the tools. Only
 * the browser's own `load` counts: a page's look-alike would spend the looks too early.
 */
function lookAfterLoad(look: () => void): void {
  const lookNowAndLater = (): void => {
    look();
    for (const delayMs of looksAfterLoadMs) setTimeout(look, delayMs);
  };
  if (document.readyState === 'complete') return lookNowAndLater();
  const onLoad = (event: Event): void => {
    if (!event.isTrusted) return;
    window.removeEventListener('load', onLoad);
    lookNowAndLater();
  };
  window.addEventListener('load', onLoad);
}
