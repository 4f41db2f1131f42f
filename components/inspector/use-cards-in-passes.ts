import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PageTool } from '@/lib/registry/types';
import { toolKey } from './tool-key';

/** A pass should leave the page free to take a key press well within 100 ms. */
const targetPassMs = 25;
const fewestCards = 10;
const mostCards = 500;

/**
 * Cards this machine draws in one pass, as learned so far: it starts low and follows what passes
 * cost (a fast laptop and a busy two-core machine differ tenfold).
 */
let cardsPerPass = 40;

/**
 * Which of `tools` to draw now: every card already drawn, and new ones up to what one pass draws;
 * the rest follow a pass at a time after each paint. A page with 500 tools, or a filter cleared
 * over them, shows its first cards at once and never holds the page up (a devtools panel shares
 * its process with the extension's other pages). A card drawn stays in place: no card goes and
 * comes back, with its focus and what was typed in it.
 */
export function useCardsInPasses(tools: readonly PageTool[]): readonly PageTool[] {
  const passStarted = performance.now();
  const drawn = useRef(new Set<string>());
  const [, drawMore] = useState(0);
  let room = cardsPerPass;
  const shown = tools.filter((tool) => drawn.current.has(toolKey(tool)) || room-- > 0);
  const added = cardsPerPass - Math.max(room, 0);
  const more = shown.length < tools.length;

  // Runs once this pass's cards are in the page: what they cost tunes the next pass.
  useLayoutEffect(() => {
    drawn.current = new Set(shown.map(toolKey));
    if (added > 0) learnPassCost(added, performance.now() - passStarted);
  });
  useEffect(() => {
    if (more) drawMore((passes) => passes + 1);
  });
  return shown;
}

function learnPassCost(cards: number, elapsedMs: number): void {
  // Passes that draw few cards say little about the rate.
  if (cards < fewestCards) return;
  const fitting = (cards / Math.max(elapsedMs, 1)) * targetPassMs;
  const next = Math.min(cardsPerPass * 2, (cardsPerPass + fitting) / 2);
  cardsPerPass = Math.round(Math.min(mostCards, Math.max(fewestCards, next)));
}
