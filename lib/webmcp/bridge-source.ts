import { bridgeReplySchema, type BridgeReply } from '../messaging/bridge-schemas';
import { openExtensionEnd } from '../messaging/bridge-wire';
import { bridgeListing } from './bridge-listing';
import { answerCall, callThroughBridge, type PendingCall } from './call-through-bridge';
import { createFormResponses, type FormResponse } from './form-responses';
import type { PageToolSource, SourceListing } from './page-tool-source';

export type { FormResponse } from './form-responses';

/** The content script's half of the bridge to polyfilled and older pages. */
export interface BridgeSource extends PageToolSource {
  /** Asks the page-world half to look for a context again and post its tools (see setupMainWorldBridge). */
  refresh(): void;
  /** Stops listening to the page-world half. */
  close(): void;
  /**
   * Arms the page-world half for the submit the extension's own form reader is about to dispatch
   * (see setupMainWorldBridge's `watchAgentSubmits`); `settle`, called once it was dispatched, says
   * what the page gave `respondWith()`, if anything. Undefined while the page-world half is not there.
   */
  armFormResponse(): FormResponse | undefined;
}

/**
 * Only the bridge can reach this side (the channel is private, see bridge-wire), but the bridge
 * shares its world with the page: tool lists are checked like any page data, and an answer counts
 * only for a call this side started, under a random id, and only once.
 */
export function createBridgeSource(): BridgeSource {
  let listing: SourceListing = { offered: [], refused: [] };
  const listeners = new Set<() => void>();
  const pending = new Map<string, PendingCall>();
  const forms = createFormResponses(() => bridge);
  // The bridge speaks first, once the page has a JavaScript context: pages without one cost nothing.
  // Only `refresh` speaks to a silent bridge, since a page may set its context up after the bridge's last look.
  let bridgeSeen = false;
  const bridge = openExtensionEnd((message) => {
    const parsed = bridgeReplySchema().safeParse(message);
    if (parsed.success) receive(parsed.data);
  });
  function receive(reply: BridgeReply): void {
    switch (reply.type) {
      case 'bridge-ready':
        // Once is enough: the bridge is there from the document's start.
        if (bridgeSeen) return;
        bridgeSeen = true;
        bridge.post({ type: 'bridge-start' });
        return;
      case 'bridge-tools':
        listing = bridgeListing(reply);
        listeners.forEach((listener) => listener());
        return;
      case 'form-no-response':
        forms.noResponse(reply.callId);
        return;
      case 'form-pending':
        forms.pending(reply.callId);
        return;
      case 'call-result':
      case 'call-error':
        if (forms.answer(reply)) return;
        answerCall(pending, reply);
        return;
    }
  }
  return {
    list: async () => listing,
    watch(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    refresh: () => bridge.post({ type: 'bridge-list' }),
    close: () => bridge.close(),
    execute: (name, args, signal) => callThroughBridge(bridge, pending, name, args, signal),
    armFormResponse: () => forms.arm(),
  };
}
