import { describe, expect, it } from 'vitest';
import { sessionStorageBytes } from '../../lib/text/session-storage-bytes';

// What Chromium 156's `chrome.storage.session.getBytesInUse` gave for `{ x: value }` and for
// `{ x: [value × 1,000] }` (less the 1,000 elements' 32 bytes each), measured in the browser.
const measured: Array<[unknown, number]> = [
  [null, 0],
  [true, 0],
  [1.5, 0],
  ['a'.repeat(22), 0],
  ['a'.repeat(24), 32],
  ['a'.repeat(100), 104],
  ['é'.repeat(100_000), 200_008],
  ['😀'.repeat(50_000), 200_008],
  [[1], 32],
  [[[]], 32],
  [{ a: 1 }, 64],
  [{ a: {} }, 64],
  [{ ['q'.repeat(30)]: 1 }, 96],
  [{ a: 'x', b: 'y' }, 128],
  [Array.from({ length: 1_000 }, (_, index) => index * 1.5), 32_000],
];

describe('sessionStorageBytes: what Chrome counts against session storage', () => {
  it('is at least what Chrome counted for each value measured, and at most 9 bytes a string over it', () => {
    for (const [value, bytes] of measured) {
      const counted = sessionStorageBytes(value);
      expect(counted, JSON.stringify(value).slice(0, 40)).toBeGreaterThanOrEqual(bytes);
      expect(counted, JSON.stringify(value).slice(0, 40)).toBeLessThanOrEqual(bytes + 9);
    }
  });

  it('counts many small objects at several times their JSON, as Chrome does', () => {
    const messages = Array.from({ length: 10_000 }, (_, index) => ({ role: 'user', content: `x${index}` }));
    // Measured: 1,600,000 bytes, where the JSON takes 338,891.
    expect(sessionStorageBytes(messages)).toBe(1_600_000);
  });

  it('leaves out of an object what storage leaves out, and counts undefined or a hole in a list as null', () => {
    expect(sessionStorageBytes({ a: undefined, b: 1 })).toBe(64);
    expect(sessionStorageBytes([undefined])).toBe(32);
    expect(sessionStorageBytes([, 1])).toBe(64);
  });
});
