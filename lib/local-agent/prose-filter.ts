import { isWholeMarkerNode, markerTrieText, stepMarkerTrie, TRIE_ROOT } from './parsing/marker-trie';
import { scanProse, startProseFilterState, type ProseFilterState } from './scan-prose';

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
  // The reading of a stretch with a `<` in it is scanProse's; here are the quick paths around it.
  const state = startProseFilterState();
  return {
    push(delta: string): string {
      if (typeof delta !== 'string' || delta === '') return '';
      if (delta.length === 1) {
        const code = delta.charCodeAt(0);
        if (state.heldNode === TRIE_ROOT && code !== 0x3c) return state.region === 'prose' ? delta : '';
        if (holdsTagStart(state, code)) return '';
      } else if (state.heldNode === TRIE_ROOT && delta.indexOf('<') === -1) {
        // Most deltas hold no `<` at all: pass them on (or drop them) without copying.
        return state.region === 'prose' ? delta : '';
      }
      const work = state.held + delta;
      state.held = '';
      state.heldNode = TRIE_ROOT;
      return scanProse(state, work);
    },
    flush(): string {
      // A held tail that never became a tag is prose.
      const rest = state.region === 'prose' ? state.held : '';
      Object.assign(state, startProseFilterState());
      return rest;
    },
  };
}

/**
 * A tag arriving a character at a time: while it is only the start of one, keep holding (the
 * held tail grows by `code`, and the delta shows nothing).
 */
function holdsTagStart(state: ProseFilterState, code: number): boolean {
  const next = stepMarkerTrie(state.heldNode, code);
  if (next === -1 || isWholeMarkerNode(next)) return false;
  state.heldNode = next;
  state.held = markerTrieText(next);
  return true;
}
