import type { BridgeReply } from '../messaging/bridge-schemas';
import { randomToken, type BridgeEnd, type ToBridgeMessage } from '../messaging/bridge-wire';
import { namedError } from '../messaging/named-error';

/** A tool call this side started through the bridge, waiting for its answer. */
export interface PendingCall {
  resolve(result: string | null): void;
  reject(error: Error): void;
}

/**
 * Starts a tool call in the page-world half. It settles with the answer (see `answerCall`), or
 * rejects as the signal aborts, which tells the page-world half to stop.
 */
export function callThroughBridge(
  bridge: BridgeEnd<ToBridgeMessage>,
  pending: Map<string, PendingCall>,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string | null> {
  // Unguessable: an answer must name a call this side made.
  const callId = randomToken();
  return new Promise<string | null>((resolve, reject) => {
    const onAbort = (): void => {
      pending.delete(callId);
      bridge.post({ type: 'call-abort', callId });
      reject(signal.reason instanceof Error ? signal.reason : namedError('AbortError', 'The call was aborted.'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = <T>(finish: (value: T) => void) => (value: T): void => {
      signal.removeEventListener('abort', onAbort);
      finish(value);
    };
    pending.set(callId, { resolve: settle(resolve), reject: settle(reject) });
    bridge.post({ type: 'call-start', callId, name, args });
  });
}

/**
 * Settles the call an answer names, once: the bridge shares its world with the page, so an answer
 * for a call this side did not start, or one already answered, counts for nothing.
 */
export function answerCall(pending: Map<string, PendingCall>, reply: Extract<BridgeReply, { type: 'call-result' | 'call-error' }>): void {
  const call = pending.get(reply.callId);
  if (!call) return;
  pending.delete(reply.callId);
  if (reply.type === 'call-result') call.resolve(reply.result);
  else call.reject(namedError(reply.error.name, reply.error.message));
}
