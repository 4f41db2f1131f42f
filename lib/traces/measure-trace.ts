import type { StoredTrace, TraceRun, TraceStep } from './trace-schema';

/**
 * Room for what a record carries besides its JSON: the keys an export wraps a run in, the store's
 * own bookkeeping. With it, a run's size is never less than the bytes it takes in an exported file.
 */
const runOverheadBytes = 600;

/** How many bytes `text` takes in UTF-8, as in a file: a character of Japanese text takes three. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00 && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A pair of UTF-16 units is one character of four bytes.
      bytes += 2;
      index += 1;
    } else bytes += 2;
  }
  return bytes;
}

/** The bytes of one step record, as JSON. */
export function stepBytes(step: TraceStep): number {
  return utf8Length(JSON.stringify(step));
}

/** The size a run counts for retention: its record, and its steps' bytes as `stepBytes` gives them. */
export function runSizeBytes(run: TraceRun, stepsBytes: number): number {
  const { sizeBytes: _ignored, ...record } = run;
  return runOverheadBytes + utf8Length(JSON.stringify(record)) + stepsBytes;
}

/** A whole trace's size, measured from its content: how an imported run is counted, never by its word. */
export function measureTrace({ run, steps }: StoredTrace): number {
  return runSizeBytes(run, steps.reduce((sum, step) => sum + stepBytes(step), 0));
}
