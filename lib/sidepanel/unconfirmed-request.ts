import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { SessionMessage } from '../agent/agent-port-protocol';

/**
 * A request that was sent but whose turn has not arrived yet: a second Enter must not send it
 * twice, and if the connection drops first the request goes back into the input box, not lost.
 */
export function createUnconfirmedRequest(draft: Signal<string>) {
  const request = signal<string | undefined>(undefined);
  return {
    request: request as ReadonlySignal<string | undefined>,
    sent(text: string) {
      request.value = text;
    },
    forget() {
      request.value = undefined;
    },
    /** Into the input box again, unless the person typed something else there meanwhile. */
    returnToDraft() {
      if (request.value !== undefined && draft.value === '') draft.value = request.value;
      request.value = undefined;
    },
    /** Its turn, or a snapshot where it runs, says the background has the request. */
    confirmBy(message: SessionMessage) {
      const pending = request.value;
      if (message.type === 'turn' && message.turn.request === pending) request.value = undefined;
      if (message.type === 'snapshot' && message.state.turns.some((turn) => turn.request === pending && !turn.outcome)) {
        request.value = undefined;
      }
    },
  };
}

export type UnconfirmedRequest = ReturnType<typeof createUnconfirmedRequest>;
