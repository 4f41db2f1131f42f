import { handOverFile, takeHandedFile } from './file-handoff';
import { getTraceStore } from './get-trace-store';
import { askBackgroundFromPage } from '../messaging/extension-page-requests';
import { errorMessage } from '../messaging/error-message';
import { connectNamedChannel } from '../messaging/port-channel';
import {
  replayServerMessageSchema,
  traceReplayPortName,
  type ReplayClientMessage,
  type ReplayServerMessage,
  type TraceResponse,
} from './trace-protocol';
import type { TraceTransport } from './trace-client';

/** The viewer page's way to the traces: IndexedDB for reads, runtime messages for the rest. */
export function extensionTraceTransport(): TraceTransport {
  return {
    store: getTraceStore,
    handOver: handOverFile,
    takeBack: takeHandedFile,
    async request(request) {
      let response: TraceResponse | undefined;
      try {
        response = (await askBackgroundFromPage(request)) as TraceResponse | undefined;
      } catch (error) {
        // The worker stopped while it answered (an update or a reload of the extension): Chrome's own words name its channel.
        if (!/message channel closed|message port closed/i.test(errorMessage(error))) throw error;
      }
      return response ?? { ok: false, error: { name: 'NoReplyError', message: 'The extension did not answer; reload the page and try again.' } };
    },
    openReplayPort() {
      const channel = connectNamedChannel<ReplayClientMessage, ReplayServerMessage>(traceReplayPortName, replayServerMessageSchema);
      return {
        post: (message) => channel.post(message),
        onMessage: (listener) => channel.onMessage(listener),
        onDisconnect: (listener) => channel.onDisconnect(listener),
        close: () => channel.disconnect(),
      };
    },
  };
}
