import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { SessionMessage } from '../agent/agent-port-protocol';
import { requestInFront } from './request-in-front';
import type { TabDrafts } from './tab-drafts';

/**
 * A request that was sent but whose turn has not arrived yet: a second Enter must not send it
 * twice, and if the connection drops or the background refuses it first, the request goes back
 * into its tab's input box, not lost. One sent for a tab the panel turned away from since waits
 * for its answer apart, and goes back into that tab's kept draft (`drafts`).
 */
export function createUnconfirmedRequest(draft: Signal<string>, followed: ReadonlySignal<number | undefined>, drafts: TabDrafts) {
  const request = signal<string | undefined>(undefined);
  // The requests of tabs the panel left before their answer came, by tab.
  const leftBehind = new Map<number, string>();
  /** Into the input box again, in front of anything typed there meanwhile: the older request first. */
  const returnToDraft = (): void => {
    for (const text of [request.value, take(leftBehind, followed.value)]) {
      if (text !== undefined) draft.value = requestInFront(text, draft.value);
    }
    request.value = undefined;
  };
  return {
    request: request as ReadonlySignal<string | undefined>,
    sent(text: string) {
      request.value = text;
    },
    /** The panel turns away from `tabId`: its request still unanswered waits there for its answer. */
    leave(tabId: number) {
      if (request.value !== undefined) leftBehind.set(tabId, request.value);
      request.value = undefined;
    },
    returnToDraft,
    /** Chrome gave a tab the panel left a new id (a tab discarded to save memory): its request waits for its answer there. */
    tabReplaced(removedTabId: number, addedTabId: number) {
      const left = take(leftBehind, removedTabId);
      if (left !== undefined) leftBehind.set(addedTabId, left);
    },
    /** The connection dropped: every request unanswered goes back to its own tab's box. */
    returnAll() {
      returnToDraft();
      for (const [tabId, text] of leftBehind) drafts.putBack(tabId, text);
      leftBehind.clear();
    },
    /** The background refused what was asked for `tabId`, a tab the panel left: its request goes back there, with `refusal`. */
    refusedIn(tabId: number, refusal: string) {
      const left = take(leftBehind, tabId);
      if (left !== undefined) drafts.putBack(tabId, left, refusal);
    },
    /** Its turn, or a snapshot where it runs, says the background has the request (one left behind: a snapshot that has it at all). */
    confirmBy(message: SessionMessage) {
      if (confirms(message, request.value)) request.value = undefined;
      confirmLeftBehind(leftBehind, message);
    },
  };
}

/** Whether the message is the turn of the request `pending`, or a snapshot where it runs. */
function confirms(message: SessionMessage, pending: string | undefined): boolean {
  if (message.type === 'turn') return message.turn.request === pending;
  return message.type === 'snapshot' && message.state.turns.some((turn) => turn.request === pending && !turn.outcome);
}

/** The request left behind for `tabId`, no longer kept. */
function take(leftBehind: Map<number, string>, tabId: number | undefined): string | undefined {
  if (tabId === undefined) return undefined;
  const left = leftBehind.get(tabId);
  leftBehind.delete(tabId);
  return left;
}

/** A turn, or a snapshot, of a tab with a request left behind that has that request says the background took it. */
function confirmLeftBehind(leftBehind: Map<number, string>, message: SessionMessage): void {
  if (message.type !== 'turn' && message.type !== 'snapshot') return;
  const [tabId, turns] = message.type === 'turn' ? [message.tabId, [message.turn]] : [message.state.tabId, message.state.turns];
  const left = leftBehind.get(tabId);
  if (left !== undefined && turns.some((turn) => turn.request === left)) leftBehind.delete(tabId);
}
