import { signal, type ReadonlySignal } from '@preact/signals';
import type { SessionState } from '../agent/session-state';
import { waitingCallIds } from './waiting-call-ids';

/** Approvals sent for cards that still show as waiting: a card answered once is not answered twice. */
export function createApprovalsSent() {
  const sent = signal<ReadonlySet<string>>(new Set());
  return {
    sent: sent as ReadonlySignal<ReadonlySet<string>>,
    add(callId: string) {
      sent.value = new Set([...sent.value, callId]);
    },
    clear() {
      sent.value = new Set();
    },
    /** Forgets the approvals of cards that no longer wait in `state`. */
    keepWaitingIn(state: SessionState | undefined) {
      if (sent.value.size === 0) return;
      const waiting = waitingCallIds(state);
      sent.value = new Set([...sent.value].filter((callId) => waiting.has(callId)));
    },
  };
}
