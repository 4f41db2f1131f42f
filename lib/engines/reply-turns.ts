/**
 * One reply at a time on a model that several tabs share. `take` waits until the replies before
 * it are done and resolves with the function that passes the turn on, or with undefined when
 * `signal` aborted while it waited (its turn is then passed on by itself).
 *
 * The engine host takes a reply's turn before the engine does, to tell the tab's panel when its
 * reply starts (see `Engine.replyTurns`): a reply whose `signal` has the turn already gets it again
 * at once, and passing that on leaves the turn to the one who took it first.
 */
export function createReplyTurns() {
  let last: Promise<void> = Promise.resolve();
  // The signal of the reply that has the turn, and how many replies have it or wait for it.
  let holder: AbortSignal | undefined;
  let waitingOrReplying = 0;
  return {
    /** Whether a reply has the turn or waits for it: one asking now would wait. */
    get busy(): boolean {
      return waitingOrReplying > 0;
    },
    async take(signal: AbortSignal): Promise<(() => void) | undefined> {
      if (signal.aborted) return undefined;
      if (holder === signal) return () => {};
      waitingOrReplying += 1;
      const before = last;
      let resolve!: () => void;
      const mine = new Promise<void>((done) => (resolve = done));
      let passed = false;
      const passOn = () => {
        if (passed) return;
        passed = true;
        waitingOrReplying -= 1;
        if (holder === signal) holder = undefined;
        resolve();
      };
      last = before.then(() => mine);
      let onAbort!: () => void;
      const aborted = new Promise<void>((done) => (onAbort = done));
      signal.addEventListener('abort', onAbort, { once: true });
      await Promise.race([before, aborted]);
      signal.removeEventListener('abort', onAbort);
      if (!signal.aborted) {
        holder = signal;
        return passOn;
      }
      passOn();
      return undefined;
    },
  };
}

export type ReplyTurns = ReturnType<typeof createReplyTurns>;
