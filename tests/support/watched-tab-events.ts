import type { BackgroundTabEvents, TabEvents } from '@/lib/service-worker/tab-events';

/**
 * Tab events as the background wires them, heard always: what said a reason began (`needed`) or
 * may have ended (`recheck`) is listed in `calls`, and `needed` asks every reason given.
 */
export function watchedTabEvents() {
  const reasons: (() => boolean | Promise<boolean>)[] = [];
  const calls: ('needed' | 'recheck')[] = [];
  const events: TabEvents = {
    listen: (event, listener) => event.addListener(listener),
    neededWhile: (needed) => void reasons.push(needed),
    needed: () => void calls.push('needed'),
    recheck: () => void calls.push('recheck'),
  };
  const needed = async (): Promise<boolean> => (await Promise.all(reasons.map((reason) => reason()))).some(Boolean);
  return { events, calls, needed };
}

/** Both of the background's sets, watched (see `watchedTabEvents`). */
export function watchedBackgroundTabEvents() {
  const navigations = watchedTabEvents();
  const tabRemovals = watchedTabEvents();
  const events: BackgroundTabEvents = { navigations: navigations.events, tabRemovals: tabRemovals.events };
  return { events, navigations, tabRemovals };
}
