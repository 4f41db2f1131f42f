import { estimateTokens, messageFrameTokens } from './estimate-tokens';

/** What stands in for a step's results left out of the prompt. */
export const leftOutToolOutput = '(An earlier tool result was left out here to fit the model\'s context. Call the tool again if you need it.)';

/** Tokens of a left-out step's message: the note and its frame. */
export const leftOutTokens = estimateTokens(leftOutToolOutput) + messageFrameTokens;

/** Tokens of room the newest results get before the oldest turns of the history give way. */
export const leastResultTokens = 256;

/** A step's results: its message's tokens whole, and at the least it can be cut to (each output's start and note). */
export interface StepSize {
  need: number;
  floor: number;
}

/**
 * Shares `roomTokens` between the results of a run's steps, newest first (each size counts the
 * step's message with its frame): the newest takes what it needs, but leaves the older ones up to
 * a third of the room; each older one, newest first, takes what it needs of what is left, and one
 * that would get less than its floor is left out (`undefined`, a note in its place). The newest
 * always gets at least its floor, so the model reads the start of the newest results (of as many
 * as the floor holds, see toolRepliesForModel). A step's results cut to its share keep the start
 * of each output that way, so the model can still compare what two steps found. The shares and
 * notes fit `roomTokens` where the newest floor does.
 */
export function shareResultRoom(steps: readonly StepSize[], roomTokens: number): Array<number | undefined> {
  if (steps.length === 0) return [];
  const [newest, ...older] = steps as [StepSize, ...StepSize[]];
  const olderWant = Math.max(
    older.length * leftOutTokens,
    Math.min(
      older.reduce((sum, step) => sum + step.need, 0),
      Math.floor(roomTokens / 3),
    ),
  );
  let left = roomTokens - Math.max(newest.floor, Math.min(newest.need, roomTokens - olderWant));
  const olderShares = older.map((step, index) => {
    // Each step after this one costs at least its note.
    const share = Math.min(step.need, left - (older.length - index - 1) * leftOutTokens);
    const kept = share >= step.floor;
    left -= kept ? share : leftOutTokens;
    return kept ? share : undefined;
  });
  // What the older ones did not take (a step left out needs only its note) goes to the newest.
  const olderCost = olderShares.reduce<number>((sum, share) => sum + (share ?? leftOutTokens), 0);
  return [Math.max(newest.floor, Math.min(newest.need, roomTokens - olderCost)), ...olderShares];
}
