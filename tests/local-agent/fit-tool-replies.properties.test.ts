import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { leftOutTokens, shareResultRoom } from '../../lib/local-agent/fit-tool-replies';

const runs = Number(process.env.FUZZ_RUNS) || 10_000;
/** A step's results: its tokens whole, and its floor (each output's start and note). */
const step = (need: number, floor = Math.min(need, 150)) => ({ need, floor });

describe('shareResultRoom', () => {
  it('gives every step what it needs while all fit', () => {
    expect(shareResultRoom([step(300), step(200), step(100)], 1_000)).toEqual([300, 200, 100]);
    expect(shareResultRoom([], 1_000)).toEqual([]);
  });

  it('lets the newest take what it needs but leaves the older ones a third of the room', () => {
    // Two long results, as when the model compares two products: both stay, each cut.
    expect(shareResultRoom([step(1_600), step(1_600)], 2_700)).toEqual([1_600, 1_100]);
    expect(shareResultRoom([step(2_000), step(2_000)], 1_500)).toEqual([1_000, 500]);
    // The older ones take their third newest first; the oldest gets what is left, or its note.
    expect(shareResultRoom([step(900), step(900), step(900)], 1_250)).toEqual([834, 416 - leftOutTokens, undefined]);
  });

  it('leaves out an older step that would get less than its floor, and gives the newest at least its own', () => {
    expect(shareResultRoom([step(2_000), step(900, 300)], 600)).toEqual([600 - leftOutTokens, undefined]);
    // Three outputs cut to their starts cost more than a single one: a floor of 350.
    expect(shareResultRoom([step(2_000), step(1_500, 350)], 1_000)).toEqual([1_000 - leftOutTokens, undefined]);
    expect(shareResultRoom([step(2_000, 200)], 100)).toEqual([200]);
    // A short older result stays whole.
    expect(shareResultRoom([step(2_000), step(60)], 900)).toEqual([840, 60]);
  });

  it('never gives more than the room beyond the newest floor, counting the notes of steps left out, nor a step more than it needs', () => {
    const steps = fc.array(
      fc.record({ need: fc.integer({ min: 0, max: 5_000 }), floor: fc.integer({ min: 0, max: 800 }) }).map(({ need, floor }) => ({ need, floor: Math.min(need, floor) })),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(steps, fc.integer({ min: 0, max: 20_000 }), (sizes, room) => {
        const shares = shareResultRoom(sizes, room);
        expect(shares).toHaveLength(sizes.length);
        expect(shares[0]).toBeGreaterThanOrEqual(sizes[0]!.floor);
        shares.forEach((share, index) => {
          if (share === undefined) expect(index).toBeGreaterThan(0);
          else expect(share).toBeLessThanOrEqual(Math.max(sizes[index]!.need, index === 0 ? sizes[0]!.floor : 0));
          if (share !== undefined && index > 0) expect(share).toBeGreaterThanOrEqual(sizes[index]!.floor);
        });
        const used = shares.reduce<number>((sum, share) => sum + (share ?? leftOutTokens), 0);
        if (room >= sizes[0]!.floor + (sizes.length - 1) * leftOutTokens) expect(used).toBeLessThanOrEqual(room);
      }),
      { numRuns: runs },
    );
  }, 10_000 + runs);
});
