// After a turn end the own-turn cut waits: white space then shows nothing until what follows says
// whether the model went on to a new turn (the reply ends) or only wrote a lone turn end.
import { matchTokenAt } from '../turn-tokens';
import { cutTurn, holdTail, type CutState } from './cut-state';

/** Right after a turn end: its white space shows nothing until what follows says whether a new turn starts. */
export function readAfterEnd(state: CutState, work: string, cursor: number, atEnd: boolean): number {
  let next = cursor;
  while (next < work.length && /\s/.test(work[next] as string)) next += 1;
  if (next === work.length) return atEnd ? work.length : holdTail(state, work, cursor);
  const match = work[next] === '<' ? matchTokenAt(work, next, atEnd) : null;
  if (match === 'partial') return holdTail(state, work, cursor);
  if (match !== null && match.kind !== 'end') return cutTurn(state, work);
  // Another turn end (`<|im_end|><|endoftext|>`): still after the end.
  if (match !== null) return next + match.length;
  state.ended = false;
  return cursor;
}
