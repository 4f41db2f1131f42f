import { describe, expect, it } from 'vitest';
import { formatScore } from '../../lib/text/format-score';

describe('formatScore, as the devtools preview and the trace viewer both write a score', () => {
  it('writes a whole score whole, and another to two decimals', () => {
    expect(formatScore(3)).toBe('3');
    expect(formatScore(0)).toBe('0');
    expect(formatScore(7.23456)).toBe('7.23');
    expect(formatScore(0.5)).toBe('0.50');
  });
});
