import type { TabEvents } from '@/lib/service-worker/tab-events';

/**
 * Tab events as the background wires them, heard always: what asked for them to be heard again
 * (`follow`) or let go (`recheck`) is listed in `calls`, and `follows` asks every reason given.
 */
export function watchedTabEvents() {
  const reasons: (() => boolean | Promise<boolean>)[] = [];
  const calls: ('follow' | 'recheck')[] = [];
  const events: TabEvents = {
    listen: (event, listener) => event.addListener(listener),
    followWhile: (follows) => void reasons.push(follows),
    follow: () => void calls.push('follow'),
    recheck: () => void calls.push('recheck'),
  };
  const follows = async (): Promise<boolean> => (await Promise.all(reasons.map((reason) => reason()))).some(Boolean);
  return { events, calls, reasons, follows };
}
