import type { EngineStatus } from './session-state';

/** The longest a progress update waits before the panels hear it, in milliseconds. */
const progressIntervalMs = 100;

/**
 * How long a state that often passes at once must last before the panels hear it: a load of a
 * model in already, or a server near at hand, and the moment between a load and its reply.
 */
const settleMs = 250;

/**
 * The engine's status that every panel starts from, and when the panels hear of it. A load's
 * progress can come hundreds of times a second and the panel needs a few, so progress goes out at
 * most every 100 ms; one held back goes out when its time is up, so the last word before a quiet
 * phase is never lost. A passing state (see `settle`) is told only once it has lasted.
 */
export function createStatusPublisher(changed: () => void, initial: EngineStatus) {
  let status = initial;
  let publishedAt = 0;
  let heldBack: ReturnType<typeof setTimeout> | undefined;
  // Until when a passing state waits to be told; progress meanwhile waits with it.
  let settlesAt = 0;

  /** Tells the panels now (a tab's own news, say), with any progress held back. */
  const publishNow = (): void => {
    clearTimeout(heldBack);
    heldBack = undefined;
    settlesAt = 0;
    publishedAt = Date.now();
    changed();
  };

  return {
    get status(): EngineStatus {
      return status;
    },
    publishNow,
    /** Changes the status and tells the panels at once. */
    update(change: Partial<EngineStatus>): void {
      status = { ...status, ...change };
      publishNow();
    },
    /** Changes the status and tells the panels within 100 ms, or at once where it is the `last` word. */
    updateProgress(change: Partial<EngineStatus>, last: boolean): void {
      status = { ...status, ...change };
      if (Date.now() < settlesAt) return;
      const wait = progressIntervalMs - (Date.now() - publishedAt);
      if (last || wait <= 0) publishNow();
      else heldBack ??= setTimeout(publishNow, wait);
    },
    /**
     * Changes the status and tells the panels in 250 ms, with any progress since, unless they hear
     * something else first: a state that lasts less would only flicker.
     */
    settle(change: Partial<EngineStatus>): void {
      status = { ...status, ...change };
      clearTimeout(heldBack);
      settlesAt = Date.now() + settleMs;
      heldBack = setTimeout(publishNow, settleMs);
    },
    /** Puts a whole new status in place without telling: the caller tells once it has said all. */
    replace(next: EngineStatus): void {
      status = next;
    },
  };
}

export type StatusPublisher = ReturnType<typeof createStatusPublisher>;
