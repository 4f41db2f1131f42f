/** What may run a page's tools in a tab: the agent (a request from the side panel), or a replay from the trace viewer. */
export type TabDriver = 'agent' | 'replay';

/** A tab taken (`release` gives it back), or the driver that has it already. */
export type TabClaim = { release(): void } | { busy: TabDriver };

/**
 * One driver per tab at a time: two acting on one page at once (a replay clicking while the
 * agent fills in a form) would each work from a page the other changes under it. Both live in
 * the service worker, and taking is synchronous, so no second driver slips in between a check
 * and a start.
 */
export function createTabDrivers() {
  const drivers = new Map<number, TabDriver>();
  return {
    take(tabId: number, driver: TabDriver): TabClaim {
      const busy = drivers.get(tabId);
      if (busy) return { busy };
      drivers.set(tabId, driver);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          drivers.delete(tabId);
        },
      };
    },
  };
}

export type TabDrivers = ReturnType<typeof createTabDrivers>;

/** What a request sent in the side panel reads when the tab is busy with `driver`. */
export function agentRefusal(driver: TabDriver): string {
  return driver === 'replay'
    ? 'A replay from the trace viewer is running in this tab. Wait for it to end, or cancel it in the trace viewer, then send your request again.'
    : 'A request is still running: stop it first.';
}

/** What the trace viewer says when the tab it would replay in is busy with `driver`. */
export function replayRefusal(driver: TabDriver): string {
  return driver === 'agent'
    ? 'The agent is running in that tab. Let its request finish, or stop it in the side panel, then replay.'
    : 'Another replay is running in that tab. Wait for it to end, then replay.';
}
