/**
 * When the chats are written: each change asks for a write within so many milliseconds, and the
 * earliest asked for wins, so streamed prose waits a little while a tool card or a turn's end goes
 * out at the next turn of the event loop. Each write, however it came, clears what was asked.
 */
export function createWriteTimer(write: () => Promise<void>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Number.POSITIVE_INFINITY;
  const writeNow = (): Promise<void> => {
    timer = undefined;
    due = Number.POSITIVE_INFINITY;
    return write();
  };
  return {
    /** A write within `ms`, unless one is due sooner already. */
    within(ms: number): void {
      if (Date.now() + ms >= due) return;
      if (timer) clearTimeout(timer);
      due = Date.now() + ms;
      timer = setTimeout(() => void writeNow().catch(() => {}), ms);
    },
    /** A write now, in place of any that was due. */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      await writeNow().catch(() => {});
    },
  };
}
