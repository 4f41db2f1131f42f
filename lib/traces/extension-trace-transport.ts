import { handOverFile } from './file-handoff';
import { getTraceStore } from './get-trace-store';
import { askBackgroundFromPage } from '../messaging/extension-page-requests';
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
    async request(request) {
      const response = (await askBackgroundFromPage(request)) as TraceResponse | undefined;
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
