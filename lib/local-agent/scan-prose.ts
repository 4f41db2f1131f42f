// The prose filter's reading of a stretch that holds a `<` (see createProseFilter), apart from its
// quick paths: it takes the filter's state as an input, so that it reads and tests alone.
import { markerTrieNodeOf, TRIE_ROOT } from './parsing/marker-trie';
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/** What the prose filter knows between deltas. */
export interface ProseFilterState {
  region: RegionKind | 'prose';
  /** The held-back tail, always the start of a marker: `heldNode` is where it leads in the trie. */
  held: string;
  heldNode: number;
  /** A reasoning tag has been seen: a `</think>` after it is no longer the unopened first one. */
  sawThinkTag: boolean;
}

/** The state of a filter at the start of a reply. */
export function startProseFilterState(): ProseFilterState {
  return { region: 'prose', held: '', heldNode: TRIE_ROOT, sawThinkTag: false };
}

/**
 * Reads `work` (what was held, then the new delta) tag by tag, moving the state from region to
 * region, and returns the prose in it; a tail that might start a tag is held in the state.
 */
export function scanProse(state: ProseFilterState, work: string): string {
  let shown = '';
  let proseStart = 0;
  let cursor = 0;
  for (;;) {
    const at = work.indexOf('<', cursor);
    if (at === -1) break;
    const marker = matchMarkerAt(work, at);
    if (marker === 'partial') {
      state.held = work.slice(at);
      state.heldNode = markerTrieNodeOf(state.held);
      return state.region === 'prose' ? shown + work.slice(proseStart, at) : shown;
    }
    const effect = marker === null ? 'content' : markerEffect(state.region, marker);
    if (marker === null || effect === 'content') {
      cursor = at + 1;
      continue;
    }
    if (state.region === 'prose') {
      shown += work.slice(proseStart, at);
      // Only the first reasoning tag can be an unopened `</think>`; a later stray one is prose.
      if (marker === 'thinkClose' && state.sawThinkTag) shown += MARKERS.thinkClose;
      if (marker === 'thinkOpen' || marker === 'thinkClose') state.sawThinkTag = true;
    }
    state.region = typeof effect === 'object' ? effect.open : 'prose';
    cursor = proseStart = at + MARKERS[marker].length;
  }
  return state.region === 'prose' ? shown + work.slice(proseStart) : shown;
}
