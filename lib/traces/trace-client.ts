import type { TraceFile } from './trace-file';
import {
  maxRunIdsPerRequest,
  replayServerMessageSchema,
  traceResponseSchemas,
  type ReplayClientMessage,
  type ReplayServerMessage,
  type ReplayTab,
  type TraceRequest,
  type TraceResponse,
  type TraceResponseData,
} from './trace-protocol';
import type { StoredTrace, TraceRun } from './trace-schema';
import type { TraceStore } from './trace-store';
import { namedError } from '../messaging/named-error';

/** The viewer's end of a replay port. */
export interface ReplayClientPort {
  post(message: ReplayClientMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
  close(): void;
}

/** How the viewer reaches the traces: the database itself for reads, the background for the rest. */
export interface TraceTransport {
  store(): Promise<TraceStore>;
  request(request: TraceRequest): Promise<TraceResponse>;
  openReplayPort(): ReplayClientPort;
  /** Puts a chosen file where the background reads it, resolving with its key (see `handOverFile`); without it, the file's text goes in the message. */
  handOver?(file: Blob): Promise<string>;
  /** Removes a file handed over that the background did not import. */
  takeBack?(key: string): Promise<unknown>;
}

export interface ReplayHandlers {
  onMessage(message: ReplayServerMessage): void;
  /** The background went away before the replay was done. */
  onLost(): void;
}

export type TraceClient = ReturnType<typeof createTraceClient>;

/**
 * What the viewer can do with traces. Reads go straight to IndexedDB (the viewer shares the
 * extension's origin), which is fastest; changes and replays go through the background, the one
 * writer, so they never race the recorder.
 */
export function createTraceClient(transport: TraceTransport) {
  async function ask<T extends TraceRequest['type']>(request: TraceRequest & { type: T }): Promise<TraceResponseData<T>> {
    const response = await transport.request(request);
    if (!response.ok) throw namedError(response.error.name, response.error.message);
    return traceResponseSchemas[request.type]().parse(response.data) as TraceResponseData<T>;
  }
  return {
    listRuns: async (): Promise<TraceRun[]> => (await transport.store()).listRuns(),
    getTrace: async (runId: string, fromStep?: number): Promise<StoredTrace | undefined> =>
      (await transport.store()).getTrace(runId, fromStep),
    getTraces: async (runIds?: readonly string[]): Promise<StoredTrace[]> => (await transport.store()).getTraces(runIds),
    /** Deletes the finished runs of `runIds`, as many requests as the protocol's limit asks. */
    async deleteRuns(runIds: string[]): Promise<TraceResponseData<'traces-delete'>> {
      const total = { deleted: 0, skippedRunning: 0 };
      for (let start = 0; start === 0 || start < runIds.length; start += maxRunIdsPerRequest) {
        const { deleted, skippedRunning } = await ask({ type: 'traces-delete', runIds: runIds.slice(start, start + maxRunIdsPerRequest) });
        total.deleted += deleted;
        total.skippedRunning += skippedRunning;
      }
      return total;
    },
    deleteAll: () => ask({ type: 'traces-delete-all' }),
    /** Rejects with a `TraceFileError` whose message says what is wrong with the file. */
    importFile: (file: TraceFile | unknown) => ask({ type: 'traces-import', file }),
    /** The same for a file the person chose: handed over whole where the transport can, else its text. */
    async importChosenFile(file: Pick<Blob, 'text'>): Promise<TraceResponseData<'traces-import'>> {
      if (transport.handOver && file instanceof Blob) {
        const key = await transport.handOver(file);
        try {
          return await ask({ type: 'traces-import-handed', key });
        } catch (error) {
          // The background may not have taken it (it stopped, say): nothing is left behind.
          await transport.takeBack?.(key).catch(() => {});
          throw error;
        }
      }
      return ask({ type: 'traces-import', file: await file.text() });
    },
    replayTabs: async (): Promise<ReplayTab[]> => (await ask({ type: 'traces-replay-tabs' })).tabs,
    /** Starts a replay, in a tab that must still show `shownOrigin` where given; the returned functions answer a confirmation and cancel. */
    replay(runId: string, tabId: number, handlers: ReplayHandlers, shownOrigin?: string) {
      const port = transport.openReplayPort();
      let finished = false;
      port.onMessage((raw) => {
        const message = replayServerMessageSchema().safeParse(raw);
        if (!message.success) return;
        if (message.data.type === 'done' || message.data.type === 'failed') finished = true;
        handlers.onMessage(message.data);
        if (finished) port.close();
      });
      port.onDisconnect(() => {
        if (!finished) handlers.onLost();
      });
      port.post({ type: 'start', runId, tabId, ...(shownOrigin !== undefined ? { origin: shownOrigin } : {}) });
      return {
        confirm: (callId: string, allow: boolean) => port.post({ type: 'confirm', callId, allow }),
        cancel: () => {
          finished = true;
          port.post({ type: 'cancel' });
          port.close();
        },
      };
    },
  };
}
