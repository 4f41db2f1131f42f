// Running one call the content script asked for in the page's world: its own file so the bridge's
// setup only wires, and a form the person submits is handled beside the call that waits for it.
import { readProperty, toolNotFound, type ToolAdapter } from '../adapters/tool-adapter';
import { formWaitsForPerson } from '../form-waits-for-person';
import type { ExtensionEnd } from './extension-end';
import { postCallError } from './post-call-error';

/** Runs the call `message` asks for with the tool's owner, answering it, abortable through `calls`. */
export async function runBridgeCall(
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
    postCallError(extension, callId, error);
  } finally {
    calls.delete(callId);
  }
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
