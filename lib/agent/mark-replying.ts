// What the panels hear as a reply starts to generate, kept apart from the stream it wraps.
import type { ReplyTurns } from '../engines/reply-turns';
import type { EngineHostParts } from './engine-host-parts';

/**
 * Tells the panels that `tabId` replies, and, where it is the first to hold `turns`, that it holds
 * them (for the panels of the tabs waiting). Answers the turns it holds, for the reply's end to let go.
 */
export function markReplying(
  { shared, news }: Pick<EngineHostParts, 'shared' | 'news'>,
  turns: ReplyTurns | undefined,
  tabId: number | undefined,
): ReplyTurns | undefined {
  // The tab that has the turn, for the panels of the tabs waiting for it.
  const holdsTurn = turns !== undefined && tabId !== undefined && !news.turnHolders.has(turns);
  if (holdsTurn) news.turnHolders.set(turns, tabId);
  news.replying.add(tabId);
  // Generating already for another tab: this tab's panel is told all the same.
  if (shared.status.state === 'ready') shared.update({ state: 'generating' });
  else shared.publishNow();
  return holdsTurn ? turns : undefined;
}
