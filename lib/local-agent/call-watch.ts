// Where a streamed reply's tagged calls open and close, read as the prose filter reads regions:
// prose after a call is held from the person, and a reply that writes the same call over is ended.
import { canonicalJson } from './json-values';
import { parseToolCalls } from './parse-tool-calls';
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/** How many times in a row one call closes before the reply is plainly looping. */
const loopCopies = 3;

/** Follows a reply's own turn, delta by delta, for its `<tool_call>` and `<|tool_call_start|>` calls. */
export interface CallWatch {
  /** Takes the next delta and returns the part of it before the reply's first call ('' once one opened). */
  push(delta: string): string;
  /** Where the first call's opening tag starts in the reply, once one has opened. */
  readonly firstCallAt: number | undefined;
  /**
   * Where the reply is plainly looping: the end of the closing tag of the same call (tool and
   * arguments) written a third time in a row. Nothing after it is read.
   */
  readonly loopEnd: number | undefined;
}

/** What the watch knows between deltas. */
interface WatchState {
  text: string;
  /** Where to look for the next `<`: a tag cut off by the end of a delta is read again whole. */
  cursor: number;
  region: RegionKind | 'prose';
  /** Where the call region now open started. */
  openAt: number;
  firstCallAt: number | undefined;
  loopEnd: number | undefined;
  /** The last call closed, as compared, and how many times in a row it closed. */
  lastKey: string | undefined;
  copies: number;
}

/**
 * A watch for one reply, fed its own turn (see createOwnTurn). `toolNames`: the tools offered at
 * the step, by which a closed call is read to compare it.
 */
export function createCallWatch(toolNames: ReadonlySet<string>): CallWatch {
  const state: WatchState = { text: '', cursor: 0, region: 'prose', openAt: 0, firstCallAt: undefined, loopEnd: undefined, lastKey: undefined, copies: 0 };
  return {
    push(delta) {
      const start = state.text.length;
      if (state.loopEnd !== undefined) return '';
      state.text += delta;
      readMarkers(state, toolNames);
      return state.firstCallAt === undefined ? delta : delta.slice(0, Math.max(0, state.firstCallAt - start));
    },
    get firstCallAt() {
      return state.firstCallAt;
    },
    get loopEnd() {
      return state.loopEnd;
    },
  };
}

/** Reads the tags not yet read, region by region, as the prose filter does (see scanProse). */
function readMarkers(state: WatchState, toolNames: ReadonlySet<string>): void {
  const { text } = state;
  for (let at = text.indexOf('<', state.cursor); at !== -1 && state.loopEnd === undefined; at = text.indexOf('<', state.cursor)) {
    const marker = matchMarkerAt(text, at);
    if (marker === 'partial') return;
    state.cursor = at + 1;
    const effect = marker === null ? 'content' : markerEffect(state.region, marker);
    if (marker === null || effect === 'content') continue;
    state.cursor = at + MARKERS[marker].length;
    if (effect === 'close' && state.region !== 'think') closeCall(state, callKey(text.slice(state.openAt, state.cursor), toolNames));
    state.region = typeof effect === 'object' ? effect.open : 'prose';
    if (state.region === 'hermes' || state.region === 'lfm2') {
      state.openAt = at;
      state.firstCallAt ??= at;
    }
  }
}

/** A call closed: the third copy in a row of one ends the reading there. */
function closeCall(state: WatchState, key: string | undefined): void {
  state.copies = key !== undefined && key === state.lastKey ? state.copies + 1 : 1;
  state.lastKey = key;
  if (state.copies >= loopCopies) state.loopEnd = state.cursor;
}

/** A closed call region as the run compares calls (see runCalls): its tools and canonical arguments. */
function callKey(region: string, toolNames: ReadonlySet<string>): string | undefined {
  const { calls, errors } = parseToolCalls(region, toolNames);
  if (calls.length === 0 || errors.length > 0) return undefined;
  return calls.map((call) => `${call.name}\u0000${canonicalJson(call.arguments)}`).join('\u0001');
}
