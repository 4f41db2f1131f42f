// The own-turn cut's reading of one stretch of the reply: which phase reads next depends on where
// the last one left the state (in reasoning, right after a turn end, or in prose or a call).
import type { CutState } from './cut-state';
import { passThink } from './pass-think';
import { readAfterEnd } from './read-after-end';
import { readProse } from './read-prose';

/** Reads `work` phase by phase, each phase saying where the next starts (its end once it stops). */
export function scanReply(state: CutState, work: string, atEnd: boolean): string {
  let cursor = 0;
  while (cursor < work.length) {
    if (state.region === 'think') cursor = passThink(state, work, cursor, atEnd);
    else if (state.ended) cursor = readAfterEnd(state, work, cursor, atEnd);
    else cursor = readProse(state, work, cursor, atEnd);
  }
  const text = state.shown;
  state.shown = '';
  return text;
}
