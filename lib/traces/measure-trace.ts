import { jsonBytes } from '../text/utf8-length';
import type { StoredTrace, TraceRun, TraceStep } from './trace-schema';

/**
 * Room for what a record carries besides its JSON: the keys an export wraps a run in, the store's
 * own bookkeeping. With it, a run's size is never less than the bytes it takes in an exported file.
 */
const runOverheadBytes = 600;

/** The bytes of one step record, as JSON. */
export function stepBytes(step: TraceStep): number {
  return jsonBytes(step);
}

/** The size a run counts for retention: its record, and its steps' bytes as `stepBytes` gives them. */
export function runSizeBytes(run: TraceRun, stepsBytes: number): number {
  const { sizeBytes: _ignored, ...record } = run;
  return runOverheadBytes + jsonBytes(record) + stepsBytes;
}

/** A whole trace's size, measured from its content: how an imported run is counted, never by its word. */
export function measureTrace({ run, steps }: StoredTrace): number {
  return runSizeBytes(run, steps.reduce((sum, step) => sum + stepBytes(step), 0));
}
