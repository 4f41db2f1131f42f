import type { BridgeReply } from '../messaging/bridge-schemas';
import { randomToken, type BridgeEnd, type ToBridgeMessage } from '../messaging/bridge-wire';
import { namedError } from '../messaging/named-error';

/** A submit armed for: `settle`, once it was dispatched, says what the page gave `respondWith()`, if anything. */
export interface FormResponse {
  settle(signal?: AbortSignal): Promise<FormAnswer>;
}

type FormAnswer = { responded: false } | { responded: true; result: string | null };
type CallReply = Extract<BridgeReply, { type: 'call-result' | 'call-error' }>;

/**
 * Submits of the extension's own form reader, waiting for what the page gave `respondWith()`.
 * `bridge` is asked for at each use: replies may come in while the bridge is still opening.
 */
export function createFormResponses(bridge: () => BridgeEnd<ToBridgeMessage>) {
  const formAnswers = new Map<string, (answer: FormAnswer | Error) => void>();
  const formsPending = new Set<string>();
  return {
    /** See `BridgeSource.armFormResponse`. */
    arm(): FormResponse | undefined {
      if (!bridge().paired) return undefined;
      const callId = randomToken();
      bridge().post({ type: 'form-arm', callId });
      return {
        settle: (signal) =>
          new Promise((resolve, reject) => {
            signal?.addEventListener('abort', () => formAnswers.delete(callId) && reject(signal.reason), { once: true });
            formAnswers.set(callId, (answer) => (answer instanceof Error ? reject(answer) : resolve(answer)));
            bridge().post({ type: 'form-disarm', callId });
            // The page-world half answers at once; silence means it no longer listens (its
            // listeners went with a `document.open()`): the submit was a plain one.
            if (formAnswers.has(callId) && !formsPending.delete(callId)) {
              formAnswers.delete(callId);
              resolve({ responded: false });
            }
          }),
      };
    },
    noResponse(callId: string): void {
      formAnswers.get(callId)?.({ responded: false });
      formAnswers.delete(callId);
    },
    pending(callId: string): void {
      formsPending.add(callId);
    },
    /** Hands a call's answer to the submit waiting for it; false when none waits (then it is a tool call's). */
    answer(reply: CallReply): boolean {
      const form = formAnswers.get(reply.callId);
      formAnswers.delete(reply.callId);
      if (form && reply.type === 'call-result') {
        form({ responded: true, result: reply.result });
        return true;
      }
      if (form && reply.type === 'call-error') {
        form(namedError(reply.error.name, reply.error.message));
        return true;
      }
      return false;
    },
  };
}
