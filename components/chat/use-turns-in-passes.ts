import { useEffect, useRef, useState } from 'preact/hooks';
import type { Turn } from '@/lib/agent/session-state';
import { charactersPerPassNow } from './use-progressive-count';

/**
 * How many of the oldest `turns` to leave out for now. A conversation opened with a long history
 * (another tab, the panel just opened) shows its latest turns first, as many as one pass renders,
 * and the older ones above them a pass at a time after each paint: the panel answers a key at
 * once, and the view, pinned to the end or anchored by the browser, does not jump. New turns of
 * the same conversation are never held back.
 */
export function useTurnsInPasses(turns: readonly Turn[], conversationKey: unknown): number {
  // Kept in a ref, not state: any render in between, whatever caused it, must hold the same turns back.
  const held = useRef({ key: undefined as unknown, count: 0 });
  const [, showMore] = useState(0);
  if (held.current.key !== conversationKey) held.current = { key: conversationKey, count: turns.length - turnsThatFit(turns, turns.length) };
  // A conversation that shrank (New chat) holds back no more than it has.
  held.current.count = Math.min(held.current.count, turns.length);
  const hidden = held.current.count;
  useEffect(() => {
    if (hidden === 0) return;
    held.current.count = hidden - turnsThatFit(turns, hidden);
    showMore((passes) => passes + 1);
  }, [hidden, turns]);
  return hidden;
}

// How many turns ending at `end` fit one pass (always at least one).
function turnsThatFit(turns: readonly Turn[], end: number): number {
  const budget = charactersPerPassNow();
  let spent = 0;
  let count = 0;
  while (count < end) {
    const size = turnCharacters(turns[end - count - 1]!);
    if (count > 0 && spent + size > budget) break;
    spent += size;
    count += 1;
  }
  return count;
}

// What a turn costs to render, near enough: its text, and a card's worth for each call.
function turnCharacters(turn: Turn): number {
  let characters = turn.request.length;
  for (const item of turn.items) characters += item.kind === 'prose' ? item.text.length : 200 + (item.result?.length ?? 0);
  return characters;
}
