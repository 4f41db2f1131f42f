import { utf8Length } from './utf8-length';

/**
 * What Chrome counts a value as against `storage.session`'s 10 MB: not its JSON but the memory
 * its copy in the browser takes (`base::Value::EstimateMemoryUsage`), measured in Chromium 156
 * with `getBytesInUse`: 32 bytes for each element of a list and 64 for each entry of an object
 * (its value and its key), plus each string's own bytes in UTF-8 where it is longer than 22
 * (shorter ones live inside their 32). A storage key's name counts as such a string; numbers,
 * booleans and null cost nothing beyond their element. So `{"role":"user","content":"hi"}` (30
 * bytes of JSON) counts as 128, and a list of 10,000 of them as 1.6 MB against 0.3 MB of JSON,
 * while long text counts as its bytes. Answers an upper bound: a long string is counted 9 bytes
 * over its length, where Chrome rounds it up by at most 8.
 */
export function sessionStorageBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (Array.isArray(value)) {
    let bytes = 0;
    for (const element of value) bytes += listElementBytes + sessionStorageBytes(element);
    return bytes;
  }
  if (value !== null && typeof value === 'object') {
    let bytes = 0;
    for (const [key, entry] of Object.entries(value)) {
      // Storage leaves out what JSON leaves out.
      if (entry === undefined || typeof entry === 'function') continue;
      bytes += objectEntryBytes + stringBytes(key) + sessionStorageBytes(entry);
    }
    return bytes;
  }
  return 0;
}

const listElementBytes = 32;
const objectEntryBytes = 64;
/** The longest string held inside its value, with no memory of its own. */
const inlineStringBytes = 22;

function stringBytes(text: string): number {
  // Only a string that may be longer than 22 bytes is measured.
  if (text.length * 3 <= inlineStringBytes) return 0;
  const bytes = utf8Length(text);
  return bytes > inlineStringBytes ? bytes + 9 : 0;
}
