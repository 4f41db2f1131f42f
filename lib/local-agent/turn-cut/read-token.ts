// Where the own-turn cut decides: a chat-template token is dropped, ends the reply (a turn not the
// model's own), or passes on as text (the start of no token, or a tag written in inline code).
import { matchTokenAt, THINK_OPEN } from '../turn-tokens';
import { cutTurn, holdTail, keepText, type CutState } from './cut-state';

/** At a `<` that may start a chat-template token: drops it, ends the reply there, or passes it on. */
export function readToken(state: CutState, work: string, at: number, atEnd: boolean): number {
  const match = matchTokenAt(work, at, atEnd);
  if (match === 'partial') return holdTail(state, work, at);
  if (match === null) return keepText(state, work, at, at + 1);
  if (match.kind === 'tool-result' || (match.kind === 'opener' && !match.own)) {
    // In inline code (`<tool_response>`) the model writes about the tag, as in its reasoning.
    return (at > 0 ? work[at - 1] : state.before) === '`' ? keepText(state, work, at, at + 1) : cutTurn(state, work);
  }
  // Reasoning opens above; a `<think>` that gets here is in a call, where the parse reads it as the call's.
  if (match.kind === 'think') state.shown += THINK_OPEN;
  if (match.kind === 'end') state.ended = true;
  return at + match.length;
}
