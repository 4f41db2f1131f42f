import { openTraceStore, type TraceStore } from './trace-store';

let opening: Promise<TraceStore> | undefined;

/** The extension's trace database, opened once per context and shared by all who use it. */
export function getTraceStore(): Promise<TraceStore> {
  opening ??= openTraceStore().catch((error: unknown) => {
    // Let the next caller try again rather than keep a failure forever.
    opening = undefined;
    throw error;
  });
  return opening;
}
