// Reasoning passes whole through the own-turn cut: a tag the model merely thinks about must not
// cut the call it then writes (the prose filter and the parse take the reasoning out).
import { THINK_CLOSE } from '../turn-tokens';
import { holdTail, keepText, type CutState } from './cut-state';

/** Inside reasoning: passes it on as it is, up to and with `</think>`. */
export function passThink(state: CutState, work: string, cursor: number, atEnd: boolean): number {
  const close = work.indexOf(THINK_CLOSE, cursor);
  if (close === -1) {
    const partial = atEnd ? 0 : partialSuffix(work, THINK_CLOSE);
    keepText(state, work, cursor, work.length - partial);
    return holdTail(state, work, work.length - partial);
  }
  state.region = 'prose';
  return keepText(state, work, cursor, close + THINK_CLOSE.length);
}

/** How many characters at the end of `text` could start `token`. */
export function partialSuffix(text: string, token: string): number {
  for (let length = Math.min(token.length - 1, text.length); length > 0; length -= 1) {
    if (token.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
