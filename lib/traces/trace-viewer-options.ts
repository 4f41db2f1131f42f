// Apart from the viewer's model, so its parts (the replay, the following of an open run) name what they take from it.
import type { TraceClient } from './trace-client';
import type { TraceSettings } from './trace-settings';

export interface TraceViewerOptions {
  client: TraceClient;
  /** Hands the person a file: a download in the page, a capture in tests. */
  download(fileName: string, text: string): void;
  /** How often an unfinished run that is open is read again. Default 1 s. */
  followIntervalMs?: number;
  /** The retention settings, kept in extension storage. */
  /** `watch`: hears the settings another viewer saved; gives back how to stop hearing them. */
  settings: { load(): Promise<TraceSettings>; save(change: Partial<TraceSettings>): Promise<TraceSettings>; watch?(listener: (settings: TraceSettings) => void): () => void };
  /** The largest file imported, and so the largest file an export writes. Default 50 MB. */
  maxFileBytes?: number;
}
