import { describe, expect, it } from 'vitest';
import type { FrameTools } from '@/lib/registry/frame-tools';
import { TurnedAwayFrames } from '@/lib/registry/turned-away-frames';
import { toolLimits } from '@/lib/webmcp/tool-limits';

const frame: FrameTools = { url: 'https://ads.example/', origin: 'https://ads.example', tools: [], dropped: [], updatedAt: 0 };
/** A tab with the top frame and `count` frames inside the page. */
const framesOf = (count: number): Record<string, FrameTools> =>
  Object.fromEntries([0, ...Array.from({ length: count }, (_, index) => index + 1)].map((id) => [String(id), frame]));

describe('the frames a tab turned away', () => {
  it('are handed back first turned away first, as many as the tab has room for, and only once', () => {
    const turnedAway = new TurnedAwayFrames();
    for (const frameId of [201, 202, 203]) turnedAway.add(7, frameId);
    expect(turnedAway.takeAsRoomAllows(7, framesOf(toolLimits.innerFrameEntriesPerTab))).toEqual([]);
    expect(turnedAway.takeAsRoomAllows(7, framesOf(toolLimits.innerFrameEntriesPerTab - 2))).toEqual([201, 202]);
    expect(turnedAway.takeAsRoomAllows(7, framesOf(0))).toEqual([203]);
    expect(turnedAway.takeAsRoomAllows(7, framesOf(0))).toEqual([]);
  });

  it('forget a frame, or every frame of a tab, and no other tab’s', () => {
    const turnedAway = new TurnedAwayFrames();
    for (const frameId of [201, 202]) turnedAway.add(7, frameId);
    turnedAway.add(8, 201);
    turnedAway.forget(7, 201);
    expect(turnedAway.takeAsRoomAllows(7, framesOf(0))).toEqual([202]);
    turnedAway.add(7, 203);
    turnedAway.forget(7);
    expect(turnedAway.takeAsRoomAllows(7, framesOf(0))).toEqual([]);
    expect(turnedAway.takeAsRoomAllows(8, framesOf(0))).toEqual([201]);
  });

  it('keep at most 1,000 of a tab, so a page making frames without end holds no more memory', () => {
    const turnedAway = new TurnedAwayFrames();
    for (let frameId = 1; frameId <= 1_500; frameId += 1) turnedAway.add(7, frameId);
    const taken: number[] = [];
    for (let round = turnedAway.takeAsRoomAllows(7, framesOf(0)); round.length > 0; round = turnedAway.takeAsRoomAllows(7, framesOf(0))) {
      taken.push(...round);
    }
    expect(taken).toHaveLength(1_000);
    expect(taken.at(-1)).toBe(1_000);
  });
});
