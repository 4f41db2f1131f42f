/**
 * One reply at a time on a model that several tabs share. `take` waits until the replies before
 * it are done and resolves with the function that passes the turn on, or with undefined when
 * `signal` aborted while it waited (its turn is then passed on by itself).
 */
export function createReplyTurns() {
  let last: Promise<void> = Promise.resolve();
  return {
    async take(signal: AbortSignal): Promise<(() => void) | undefined> {
      if (signal.aborted) return undefined;
      const before = last;
      let passOn!: () => void;
      const mine = new Promise<void>((resolve) => (passOn = resolve));
      last = before.then(() => mine);
      let onAbort!: () => void;
      const aborted = new Promise<void>((resolve) => (onAbort = resolve));
      signal.addEventListener('abort', onAbort, { once: true });
      await Promise.race([before, aborted]);
      signal.removeEventListener('abort', onAbort);
      if (!signal.aborted) return passOn;
      passOn();
      return undefined;
    },
  };
}

export type ReplyTurns = ReturnType<typeof createReplyTurns>;
