import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { leastResultTokens, leftOutTokens, shareResultRoom } from '../../lib/local-agent/fit-tool-replies';

const runs = Number(process.env.FUZZ_RUNS) || 10_000;

describe('shareResultRoom', () => {
  it('gives every step what it needs while all fit', () => {
    expect(shareResultRoom([300, 200, 100], 1_000)).toEqual([300, 200, 100]);
    expect(shareResultRoom([], 1_000)).toEqual([]);
  });

  it('lets the newest take what it needs but leaves the older ones a third of the room', () => {
    // Two long results, as when the model compares two products: both stay, each cut.
    expect(shareResultRoom([1_600, 1_600], 2_700)).toEqual([1_600, 1_100]);
    expect(shareResultRoom([2_000, 2_000], 1_500)).toEqual([1_000, 500]);
    // The older ones take their third newest first; the oldest gets what is left, or its note.
    expect(shareResultRoom([900, 900, 900], 1_250)).toEqual([834, 416 - leftOutTokens, undefined]);
  });

  it('leaves out an older step that would get less than it can use, and shows the newest whatever the room', () => {
    expect(shareResultRoom([2_000, 900], 600)).toEqual([600 - leftOutTokens, undefined]);
    expect(shareResultRoom([2_000], 100)).toEqual([100]);
    // A short older result that needs less than the least share stays whole.
    expect(shareResultRoom([2_000, 60], 900)).toEqual([840, 60]);
  });

  it('never gives more than the room, counting the notes of steps left out, nor a step more than it needs', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 20_000 }), (needs, room) => {
        const shares = shareResultRoom(needs, room);
        expect(shares).toHaveLength(needs.length);
        shares.forEach((share, index) => {
          if (share === undefined) expect(index).toBeGreaterThan(0);
          else expect(share).toBeLessThanOrEqual(needs[index]!);
          if (share !== undefined && index > 0) expect(share).toBeGreaterThanOrEqual(Math.min(needs[index]!, leastResultTokens));
        });
        const used = shares.reduce<number>((sum, share) => sum + (share ?? leftOutTokens), 0);
        // Where the notes alone do not fit, nothing more is given than the newest's floor of 0.
        if (room >= (needs.length - 1) * leftOutTokens) expect(used).toBeLessThanOrEqual(room);
      }),
      { numRuns: runs },
    );
  });
});
