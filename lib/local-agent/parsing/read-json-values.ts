import { readJson } from './read-json';
import { skipSpace } from './text-range';

export interface JsonValueRead {
  value: unknown;
  cutShort: boolean;
  start: number;
  end: number;
}

export interface JsonValuesRead {
  values: JsonValueRead[];
  /** Why reading stopped on a value it could not read, and where that value began. */
  failure: { reason: string; at: number } | null;
  /** Where reading stopped: `end` when the whole range was read. */
  stop: number;
}

/**
 * Reads the JSON objects and arrays in a range, one after another, separated by white space,
 * commas or semicolons. Extra closing brackets after a value are passed over; reading stops at
 * any other text, or after a value the end of the range cut short.
 */
export function readJsonValues(text: string, start: number, end: number): JsonValuesRead {
  const values: JsonValueRead[] = [];
  let position = skipSpace(text, start, end);
  while (position < end) {
    const code = text.charCodeAt(position);
    const isSeparator = code === 0x2c || code === 0x3b || code === 0x7d || code === 0x5d;
    if (values.length > 0 && isSeparator) {
      position = skipSpace(text, position + 1, end);
      continue;
    }
    if (code !== 0x7b && code !== 0x5b) break;
    const read = readJson(text, position, end);
    if (!read.ok) return { values, failure: { reason: read.reason, at: position }, stop: position };
    values.push({ value: read.value, cutShort: read.cutShort, start: position, end: read.end });
    position = skipSpace(text, read.end, end);
    if (read.cutShort) break;
  }
  return { values, failure: null, stop: position };
}
