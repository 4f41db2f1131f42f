/**
 * When a lost port tries again: after the first delay, doubling after each try that fails, up to
 * the longest. A message from the background (`reset`) shows it alive again, so the next loss waits
 * the shortest delay once more.
 */
export function createReconnectBackoff(firstDelayMs: number, maxDelayMs: number) {
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    /** A try is scheduled and has not run yet. */
    get waiting(): boolean {
      return timer !== undefined;
    },
    schedule(retry: () => void): void {
      const delay = Math.min(firstDelayMs * 2 ** failures, maxDelayMs);
      failures += 1;
      timer = setTimeout(retry, delay);
    },
    /** The scheduled try runs now (or the port opened otherwise): nothing waits any more. */
    ran(): void {
      timer = undefined;
    },
    reset(): void {
      failures = 0;
    },
    cancel(): void {
      clearTimeout(timer);
    },
  };
}
