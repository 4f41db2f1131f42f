// At a `<` the own-turn cut first reads call and reasoning tags as the parse does (see
// markerEffect), so that the regions it follows are the parse's; other tokens come after.
import { MARKERS, markerEffect } from '../parsing/markup-markers';
import { matchCallMarkerAt } from '../turn-tokens';
import { enterRegion, holdTail, keepText, type CutState } from './cut-state';
import { readToken } from './read-token';

/** At a `<`: a tag that opens or closes a call or reasoning passes on, as it does for the parse. */
export function readTag(state: CutState, work: string, at: number, atEnd: boolean): number {
  const marker = matchCallMarkerAt(work, at);
  if (marker === 'partial' && !atEnd) return holdTail(state, work, at);
  if (marker !== null && marker !== 'partial') {
    const effect = markerEffect(state.region, marker);
    if (effect === 'close' || typeof effect === 'object') {
      enterRegion(state, effect === 'close' ? 'prose' : effect.open);
      return keepText(state, work, at, at + MARKERS[marker].length);
    }
  }
  // In a string of a call's arguments, every token is text the page gets.
  if (state.body !== null && state.body.quote !== 0) return keepText(state, work, at, at + 1);
  return readToken(state, work, at, atEnd);
}
