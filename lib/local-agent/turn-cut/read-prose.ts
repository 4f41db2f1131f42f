// Prose and calls pass through the own-turn cut up to each `<`, the only place a token can start;
// a call's arguments are followed as they pass, so that a tag in one of their strings stays text.
import { keepText, readBody, type CutState } from './cut-state';
import { readTag } from './read-tag';

/** Prose or a call: passes it on up to the next `<`, and reads what starts there. */
export function readProse(state: CutState, work: string, cursor: number, atEnd: boolean): number {
  const at = work.indexOf('<', cursor);
  // The `<` too, which ends an escape that a backslash before it began.
  readBody(state, work, cursor, at === -1 ? work.length : at + 1);
  if (at === -1) return keepText(state, work, cursor, work.length);
  keepText(state, work, cursor, at);
  return readTag(state, work, at, atEnd);
}
