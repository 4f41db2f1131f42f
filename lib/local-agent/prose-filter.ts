import { isWholeMarkerNode, markerTrieNodeOf, markerTrieText, stepMarkerTrie, TRIE_ROOT } from './parsing/marker-trie';
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/** The streaming half of `parseToolCalls`: shows a reply's prose as it arrives. */
export interface ProseFilter {
  /** The prose that is safe to show so far. */
  push(delta: string): string;
  /** What is left at the end of the reply; the filter is then ready for a new reply. */
  flush(): string;
}

/**
 * Hides `<think>`, `<tool_call>` and `<|tool_call_start|>` regions (to their closing tag, to the
 * next call for a call region, or to the end), holding back any tail that might start a tag. It
 * hides only these tags, as documented: a fenced or whole-reply JSON call streams out as text.
 * The output is the same however the reply is cut into chunks. Stray closing call tags are
 * dropped; a `</think>` before any `<think>` is dropped too, but the reasoning already shown before
 * it cannot be taken back here (parseToolCalls, which sees the whole reply, drops it, and the agent
 * loop shows its text in place of what streamed: see settleProse).
 */
export function createProseFilter(): ProseFilter {
  let region: RegionKind | 'prose' = 'prose';
  // The held-back tail is always the start of a marker: `heldNode` is where it leads in the trie.
  let held = '';
  let heldNode = TRIE_ROOT;
  let sawThinkTag = false;

  function scan(work: string): string {
    let shown = '';
    let proseStart = 0;
    let cursor = 0;
    for (;;) {
      const at = work.indexOf('<', cursor);
      if (at === -1) break;
      const marker = matchMarkerAt(work, at);
      if (marker === 'partial') {
        held = work.slice(at);
        heldNode = markerTrieNodeOf(held);
        return region === 'prose' ? shown + work.slice(proseStart, at) : shown;
      }
      const effect = marker === null ? 'content' : markerEffect(region, marker);
      if (marker === null || effect === 'content') {
        cursor = at + 1;
        continue;
      }
      if (region === 'prose') {
        shown += work.slice(proseStart, at);
        // Only the first reasoning tag can be an unopened `</think>`; a later stray one is prose.
        if (marker === 'thinkClose' && sawThinkTag) shown += MARKERS.thinkClose;
        if (marker === 'thinkOpen' || marker === 'thinkClose') sawThinkTag = true;
      }
      region = typeof effect === 'object' ? effect.open : 'prose';
      cursor = proseStart = at + MARKERS[marker].length;
    }
    return region === 'prose' ? shown + work.slice(proseStart) : shown;
  }

  return {
    push(delta: string): string {
      if (typeof delta !== 'string' || delta === '') return '';
      if (delta.length === 1) {
        const code = delta.charCodeAt(0);
        if (heldNode === TRIE_ROOT && code !== 0x3c) return region === 'prose' ? delta : '';
        // A tag arriving a character at a time: while it is only the start of one, keep holding.
        const next = stepMarkerTrie(heldNode, code);
        if (next !== -1 && !isWholeMarkerNode(next)) {
          heldNode = next;
          held = markerTrieText(next);
          return '';
        }
      } else if (heldNode === TRIE_ROOT && delta.indexOf('<') === -1) {
        // Most deltas hold no `<` at all: pass them on (or drop them) without copying.
        return region === 'prose' ? delta : '';
      }
      const work = held + delta;
      held = '';
      heldNode = TRIE_ROOT;
      return scan(work);
    },
    flush(): string {
      // A held tail that never became a tag is prose.
      const rest = region === 'prose' ? held : '';
      region = 'prose';
      held = '';
      heldNode = TRIE_ROOT;
      sawThinkTag = false;
      return rest;
    },
  };
}
