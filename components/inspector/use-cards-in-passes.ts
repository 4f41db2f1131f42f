import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PageTool } from '@/lib/registry/types';
import { learnPassSize } from '@/components/shared/learn-pass-size';
import { toolKey } from './tool-key';

const passBounds = { fewest: 10, most: 500 };

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
    if (added > 0) cardsPerPass = learnPassSize(cardsPerPass, added, performance.now() - passStarted, passBounds);
  });
  useEffect(() => {
    if (more) drawMore((passes) => passes + 1);
  });
  return shown;
}
