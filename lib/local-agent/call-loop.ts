// When the calls a streamed reply closes, one after another, are plainly a loop and not a reply
// that makes many calls (see CallWatch).

/**
 * How many times in a row a looping reply writes one call, or one run of calls, before it is
 * ended: once more than this. A model that wrote a call three times and then moved on to another
 * is not looping.
 */
const loopCopies = 3;

/** The longest run of calls whose repeating is a loop: `A, B, A, B, …` repeats a run of two. */
const longestRun = 4;

/** A call closed in the reply: what it is, as compared, and where it ends. */
interface ClosedCall {
  key: string;
  end: number;
}

/** Follows the calls a reply closes, in order, for a run of them written over and over. */
export interface LoopCheck {
  /** Takes the next call closed: answers where the reply is cut once a run closed a fourth time in a row. */
  add(key: string, end: number): number | undefined;
  /**
   * Where the reply is cut, now that the engine cut it off (its token cap) before a fourth copy of a
   * run closed: once it closed a third time in a row.
   */
  atCut(): number | undefined;
}

export function createLoopCheck(): LoopCheck {
  const calls: ClosedCall[] = [];
  return {
    add(key, end) {
      calls.push({ key, end });
      // A loop is found as soon as it repeats enough, so older calls are never needed.
      if (calls.length > longestRun * (loopCopies + 1)) calls.shift();
      return loopEnd(calls, loopCopies + 1);
    },
    atCut: () => loopEnd(calls, loopCopies),
  };
}

/**
 * Where to cut a reply whose last calls are one run written `times` times in a row (the shortest
 * such run), or undefined. A call written straight after itself runs once (see runCalls), so the
 * first three copies of one call are kept, as a reply that moved on would have them, and the call
 * runs once. A longer run runs again each time it is written (another call ran between), so only
 * its first copy is kept: each of its calls runs once.
 */
function loopEnd(calls: readonly ClosedCall[], times: number): number | undefined {
  for (let length = 1; length <= longestRun; length += 1) {
    if (!repeats(calls, length, times)) continue;
    let start = calls.length - length * times;
    // Cut off by the cap, the loop may have begun partway into a run (`A, B, A, B, A, B, A`).
    while (start > 0 && calls[start - 1]!.key === calls[start - 1 + length]!.key) start -= 1;
    const kept = length === 1 ? loopCopies : length;
    return calls[start + kept - 1]!.end;
  }
  return undefined;
}

/** Whether the last `length * times` calls are one run of `length` calls written `times` times. */
function repeats(calls: readonly ClosedCall[], length: number, times: number): boolean {
  const from = calls.length - length * times;
  if (from < 0) return false;
  for (let index = from + length; index < calls.length; index += 1) {
    if (calls[index]!.key !== calls[index - length]!.key) return false;
  }
  return true;
}
