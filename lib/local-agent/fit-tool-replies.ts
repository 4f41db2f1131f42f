import { estimateTokens, messageFrameTokens } from './estimate-tokens';

/** What stands in for a step's results left out of the prompt. */
export const leftOutToolOutput = '(An earlier tool result was left out here to fit the model\'s context. Call the tool again if you need it.)';

/** Tokens of a left-out step's message: the note and its frame. */
export const leftOutTokens = estimateTokens(leftOutToolOutput) + messageFrameTokens;

/** Tokens below which an earlier step's results are left out rather than cut. */
export const leastResultTokens = 256;

/**
 * Shares `roomTokens` between the results of a run's steps, newest first (`needs[0]` is the newest
 * step's message whole, frame included): the newest takes what it needs, but leaves the older ones
 * up to a third of the room; each older one, newest first, takes what it needs of what is left, and
 * one that would get less than `leastResultTokens` (and less than it needs) is left out (`undefined`,
 * a note in its place). A step's results cut to its share keep the start of each output, so the
 * model can still compare what two steps found. The shares and notes fit `roomTokens` where it can.
 */
export function shareResultRoom(needs: readonly number[], roomTokens: number): Array<number | undefined> {
  if (needs.length === 0) return [];
  const older = needs.slice(1);
  const olderWant = Math.max(
    older.length * leftOutTokens,
    Math.min(
      older.reduce((sum, need) => sum + need, 0),
      Math.floor(roomTokens / 3),
    ),
  );
  let left = roomTokens - Math.max(0, Math.min(needs[0]!, roomTokens - olderWant));
  const olderShares = older.map((need, index) => {
    // Each step after this one costs at least its note.
    const share = Math.min(need, left - (older.length - index - 1) * leftOutTokens);
    const kept = share >= Math.min(need, leastResultTokens);
    left -= kept ? share : leftOutTokens;
    return kept ? share : undefined;
  });
  // What the older ones did not take (a step left out needs only its note) goes to the newest.
  const olderCost = olderShares.reduce<number>((sum, share) => sum + (share ?? leftOutTokens), 0);
  return [Math.max(0, Math.min(needs[0]!, roomTokens - olderCost)), ...olderShares];
}
