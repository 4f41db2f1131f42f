import { browser } from 'wxt/browser';
import { getTraceStore } from './get-trace-store';
import { traceReplayPortName, type TraceResponse } from './trace-protocol';
import type { TraceTransport } from './trace-client';

/** The viewer page's way to the traces: IndexedDB for reads, runtime messages for the rest. */
export function extensionTraceTransport(): TraceTransport {
  return {
    store: getTraceStore,
    async request(request) {
      const response = (await browser.runtime.sendMessage(request)) as TraceResponse | undefined;
      return response ?? { ok: false, error: { name: 'NoReplyError', message: 'The extension did not answer; reload the page and try again.' } };
    },
    openReplayPort() {
      const port = browser.runtime.connect({ name: traceReplayPortName });
      // Reading lastError marks it handled, so a service-worker restart logs no warning.
      port.onDisconnect.addListener(() => void browser.runtime.lastError);
      return {
        post: (message) => port.postMessage(message),
        onMessage: (listener) => port.onMessage.addListener((message: unknown) => listener(message)),
        onDisconnect: (listener) => port.onDisconnect.addListener(() => listener()),
        close: () => port.disconnect(),
      };
    },
  };
}
