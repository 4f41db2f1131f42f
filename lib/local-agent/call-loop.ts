// When the calls a streamed reply closes, one after another, are plainly a loop and not a reply
// that makes many calls (see CallWatch).

/**
 * How many times in a row a looping reply writes one call before it is ended: once more than
 * this. A model that wrote a call three times and then moved on to another is not looping.
 */
const loopCopies = 3;

/** The longest run of calls whose repeating is a loop: `A, B, A, B, …` repeats a run of two. */
const longestRun = 4;

/** What the check compares of a call: its text, say. */
export interface LoopCall {
  readonly key: string;
}

/** Follows the calls a reply closes, in order, for one call, or a run of calls, written over and over. */
export interface LoopCheck<Call extends LoopCall> {
  /**
   * Takes the next call closed: answers the call to cut the reply after once one call was
   * written a fourth time in a row. A run of calls written again is not cut here: a turtle that
   * draws a square writes `forward, left` four times, and each answers anew.
   */
  add(call: Call): Call | undefined;
  /**
   * The call to cut the reply after, now that the engine cut it off (its token cap) while it wrote
   * one call, or a run of up to four calls, a third time in a row or more: a reply that reaches
   * the cap that way was looping.
   */
  atCut(): Call | undefined;
}

/** The calls at the reply's end that repeat a run of one length, and the call to keep them to. */
interface Streak<Call> {
  /** How many of the last calls each repeat the call the run's length before it. */
  calls: number;
  kept: Call | undefined;
}

export function createLoopCheck<Call extends LoopCall>(): LoopCheck<Call> {
  // A loop is told by its streaks, so older calls are never needed: the check takes no more room
  // and time per call however long the reply runs.
  const recent: string[] = [];
  const streaks = Array.from({ length: longestRun }, (): Streak<Call> => ({ calls: 0, kept: undefined }));
  return {
    add(call) {
      streaks.forEach((streak, index) => extend(streak, index + 1, recent, call));
      recent.push(call.key);
      if (recent.length > longestRun) recent.shift();
      const single = streaks[0]!;
      return single.calls > loopCopies ? single.kept : undefined;
    },
    atCut() {
      // The loop that began earliest: `A, A, A, B` written over reads as that run, not as the
      // `A, A, A` it ends with.
      let longest: Streak<Call> | undefined;
      streaks.forEach((streak, index) => {
        const repeated = streak.calls >= (index + 1) * loopCopies;
        if (repeated && streak.calls > (longest?.calls ?? 0)) longest = streak;
      });
      return longest?.kept;
    },
  };
}

/**
 * Takes the next call into the streak of runs of `length`. A call written straight after itself
 * runs once (see runCalls), so the first three copies of one call are kept, as a reply that moved
 * on would have them, and the call runs once. A longer run runs again each time it is written
 * (another call ran between), so only its first copy is kept: each of its calls runs once.
 */
function extend<Call extends LoopCall>(streak: Streak<Call>, length: number, recent: readonly string[], call: Call): void {
  const before = recent[recent.length - length];
  streak.calls = before === undefined || before === call.key ? streak.calls + 1 : length;
  if (streak.calls === (length === 1 ? loopCopies : length)) streak.kept = call;
}
