// A reply that waits for another tab's is the one moment its tab's panel must hear of the turn:
// kept apart from the reply's status, which only awaits it.
import type { ReplyTurns } from '../engines/reply-turns';
import type { EngineHostParts } from './engine-host-parts';

/** Takes the reply's turn, telling `tabId`'s panel while it waits for another tab's; undefined where stopped meanwhile. */
export async function waitForReplyTurn(
  { shared, news }: Pick<EngineHostParts, 'shared' | 'news'>,
  turns: ReplyTurns | undefined,
  tabId: number | undefined,
  signal: AbortSignal,
): Promise<(() => void) | undefined> {
  if (!turns) return () => {};
  if (tabId === undefined || !turns.busy) return turns.take(signal);
  news.waitingForTurn.add(tabId);
  news.turnsWaitedFor.set(tabId, turns);
  shared.publishNow();
  try {
    return await turns.take(signal);
  } finally {
    news.waitingForTurn.remove(tabId);
    if (!news.waitingForTurn.has(tabId)) news.turnsWaitedFor.delete(tabId);
  }
}
