// What the panels hear as a reply, or its wait for the turn, ends, kept apart from the stream it wraps.
import type { EngineHostParts } from './engine-host-parts';

/** Counts the reply ended and says so: the shared status goes back to ready once no tab replies. */
export function markReplyEnded({ shared, runs }: Pick<EngineHostParts, 'shared' | 'runs'>): void {
  runs.replyEnds();
  // The tab's panel hears that its reply ended, or its wait did (a Stop), whatever the others do.
  if (!runs.replying && shared.status.state === 'generating') shared.update({ state: 'ready' });
  else shared.publishNow();
  runs.settle();
}
