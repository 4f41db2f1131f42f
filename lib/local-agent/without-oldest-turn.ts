// How a prompt's history gives way, whole turns at a time (see RunPrompt): the oldest turn when
// the newest results need room, the older half when the model found a prompt too long.
import type { ChatMessage } from '@webmcp-agents/chat';
import { messagesTokens } from './messages-tokens';

/** The history without its oldest turn: the first message, and the replies that follow it. */
export function withoutOldestTurn(history: readonly ChatMessage[]): readonly ChatMessage[] {
  let start = 1;
  while (start < history.length && history[start]!.role !== 'user') start += 1;
  return history.slice(start);
}

/** The history without its older half (by tokens), whole turns at a time. */
export function withoutOlderHalf(history: readonly ChatMessage[]): readonly ChatMessage[] {
  const half = messagesTokens(history) / 2;
  let kept = withoutOldestTurn(history);
  while (kept.length > 0 && messagesTokens(kept) > half) kept = withoutOldestTurn(kept);
  return kept;
}
