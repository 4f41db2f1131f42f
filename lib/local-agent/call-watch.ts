// Where a streamed reply's tagged calls open, read as the prose filter reads regions: prose after a
// call is held from the person.
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/** Follows a reply's own turn, delta by delta, for its `<tool_call>` and `<|tool_call_start|>` calls. */
export interface CallWatch {
  /** Takes the next delta and returns the part of it before the reply's first call ('' once one opened). */
  push(delta: string): string;
  /** Where the first call's opening tag starts in the reply, once one has opened. */
  readonly firstCallAt: number | undefined;
}

/** What the watch knows between deltas. */
interface WatchState {
  text: string;
  /** Where to look for the next `<`: a tag cut off by the end of a delta is read again whole. */
  cursor: number;
  region: RegionKind | 'prose';
  firstCallAt: number | undefined;
}

/** A watch for one reply, fed its own turn (see createOwnTurn). */
export function createCallWatch(): CallWatch {
  const state: WatchState = { text: '', cursor: 0, region: 'prose', firstCallAt: undefined };
  return {
    push(delta) {
      const start = state.text.length;
      if (state.firstCallAt !== undefined) return '';
      state.text += delta;
      readMarkers(state);
      return state.firstCallAt === undefined ? delta : delta.slice(0, Math.max(0, state.firstCallAt - start));
    },
    get firstCallAt() {
      return state.firstCallAt;
    },
  };
}

/** Reads the tags not yet read, region by region, as the prose filter does (see scanProse). */
function readMarkers(state: WatchState): void {
  const { text } = state;
  for (let at = text.indexOf('<', state.cursor); at !== -1 && state.firstCallAt === undefined; at = text.indexOf('<', state.cursor)) {
    const marker = matchMarkerAt(text, at);
    if (marker === 'partial') return;
    state.cursor = at + 1;
    const effect = marker === null ? 'content' : markerEffect(state.region, marker);
    if (marker === null || effect === 'content') continue;
    state.cursor = at + MARKERS[marker].length;
    state.region = typeof effect === 'object' ? effect.open : 'prose';
    if (state.region === 'hermes' || state.region === 'lfm2') state.firstCallAt = at;
  }
}
