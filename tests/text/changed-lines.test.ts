import { describe, expect, it } from 'vitest';
import { changedLines } from '@/lib/text/changed-lines';

const lines = (text: string) => text.split('\n');

describe('changedLines', () => {
  it('marks the lines a result changed on each side, and none it kept', () => {
    const before = lines('{\n  "quantity": 2,\n  "unitPrice": 16,\n  "total": 32\n}');
    const after = lines('{\n  "quantity": 4,\n  "unitPrice": 16,\n  "total": 64\n}');
    expect(changedLines(before, after)).toEqual({ before: new Set([1, 3]), after: new Set([1, 3]) });
  });

  it('marks lines added or removed on their own side only', () => {
    expect(changedLines(['a', 'b', 'c'], ['a', 'x', 'b', 'c', 'y'])).toEqual({ before: new Set(), after: new Set([1, 4]) });
    expect(changedLines(['a', 'b', 'c'], ['c'])).toEqual({ before: new Set([0, 1]), after: new Set() });
    expect(changedLines([], ['a'])).toEqual({ before: new Set(), after: new Set([0]) });
  });

  it('marks nothing where the results are too long to compare line by line', () => {
    const long = Array.from({ length: 2_001 }, (_, index) => `line ${index}`);
    expect(changedLines(long, long.slice(0, 2_000))).toBeUndefined();
  });
});
