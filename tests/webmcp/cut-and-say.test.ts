import { describe, expect, it } from 'vitest';
import { cutAndSay } from '@/lib/webmcp/cut-and-say';

describe('cutAndSay', () => {
  it('keeps a text that fits, and cuts a longer one with a line that says how much went', () => {
    expect(cutAndSay('short', 100)).toBe('short');
    const cut = cutAndSay('x'.repeat(200), 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/^x+\n… \(cut: \d+ of 200 characters not shown\)$/);
    expect(cutAndSay(cut, 100)).toBe(cut);
  });

  it('never keeps half an emoji', () => {
    const text = '🛒'.repeat(100);
    for (let limit = 60; limit < 70; limit += 1) {
      const kept = cutAndSay(text, limit).split('\n')[0]!;
      expect(kept).not.toMatch(/[\ud800-\udbff]$/);
      expect([...kept].every((character) => character === '🛒')).toBe(true);
    }
  });
});
