// The page-world side of a `<form toolname>` submitted by the extension's form reader: its own
// file so the bridge's setup only wires, and the browser's `respondWith()` rules sit together.
import { executeResultString } from '../adapters/tool-adapter';
import type { ExtensionEnd } from './extension-end';
import { postCallError } from './post-call-error';

/** The one submit armed for the agent, and what the page did with it. */
type ArmedSubmit = { callId: string; seen: boolean; responded?: Promise<unknown>; closed?: boolean };

/**
 * Where the browser has no WebMCP, the extension's own form reader submits a `<form toolname>`
 * from its isolated world, whose properties the page cannot see. For that one submit, armed just
 * before and disarmed just after (dispatch is synchronous), the event gets what the browser would
 * give it in the page's world: `agentInvoked` and `respondWith()`, so a page written for WebMCP
 * (`event.preventDefault(); if (event.agentInvoked) event.respondWith(result)`) gives its result.
 * Heard first: this capture listener is added before any script of the page runs.
 */
export function watchAgentSubmits() {
  let armed: ArmedSubmit | undefined;
  window.addEventListener(
    'submit',
    (event) => {
      const call = armed;
      if (!call || call.seen) return;
      call.seen = true;
      giveAgentFields(event, call);
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
      answerDisarmed(call, callId, extension);
    },
  };
}

/** Gives the agent's submit `agentInvoked` and `respondWith()`, as the browser would. */
function giveAgentFields(event: Event, call: ArmedSubmit): void {
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
}

/**
 * Answered at once either way (dispatch is synchronous): a content script that hears nothing
 * back knows this half is not listening (a `document.open()` took its listeners).
 */
function answerDisarmed(call: ArmedSubmit | undefined, callId: string, extension: ExtensionEnd): void {
  if (!call?.responded) return extension.post({ type: 'form-no-response', callId });
  extension.post({ type: 'form-pending', callId });
  call.responded
    .then((value) => executeResultString(value))
    .then(
      (result) => extension.post({ type: 'call-result', callId, result }),
      (error: unknown) => postCallError(extension, callId, error),
    );
}
