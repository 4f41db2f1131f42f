// A reply that ended well is news for every panel: what failed before no longer holds.
import type { EngineHostParts } from './engine-host-parts';

/** The engine answers again: what a reply before said of it no longer holds. */
export function forgetReplyFailures({ shared, news }: Pick<EngineHostParts, 'shared' | 'news'>): void {
  if (news.replyFailures.size === 0) return;
  news.replyFailures.clear();
  shared.publishNow();
}
