// Where a streamed reply's tagged calls open and close, read as the prose filter reads regions:
// prose after a call is held from the person, and a reply that writes the same call over is ended.
import { canonicalJson } from './json-values';
import { parseToolCalls } from './parse-tool-calls';
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/**
 * How many copies in a row of one call a looping reply keeps. The reply is ended when one more
 * closes: a model that wrote a call three times and then moved on to another is not looping.
 */
const loopCopies = 3;

/** Follows a reply's own turn, delta by delta, for its `<tool_call>` and `<|tool_call_start|>` calls. */
export interface CallWatch {
  /** Takes the next delta and returns the part of it before the reply's first call ('' once one opened). */
  push(delta: string): string;
  /** Where the first call's opening tag starts in the reply, once one has opened. */
  readonly firstCallAt: number | undefined;
  /**
   * Where the reply is plainly looping: the end of the closing tag of the same call (tool and
   * arguments) written a third time in a row, once a fourth copy closed. Nothing after it is read.
   */
  readonly loopEnd: number | undefined;
  /**
   * Ends the reading after the third copy in a row of one call, where the reply was cut off (the
   * engine's token cap) before a fourth could close; answers whether the reply ends looping.
   */
  endLoop(): boolean;
}

/** What the watch knows between deltas. */
interface WatchState {
  /** Where in the reply `held` starts: all before it has been read. */
  read: number;
  /** A tail that may start a tag, read again with the next delta. */
  held: string;
  region: RegionKind | 'prose';
  /** The call region now open, from its opening tag, as far as it has been read. */
  call: string;
  firstCallAt: number | undefined;
  loopEnd: number | undefined;
  /** The last call closed, as compared, how many times in a row it closed, and where it last ended. */
  lastKey: string | undefined;
  copies: number;
  lastEnd: number;
}

/**
 * A watch for one reply, fed its own turn (see createOwnTurn). `toolNames`: the tools offered at
 * the step, by which a closed call is read to compare it.
 */
export function createCallWatch(toolNames: ReadonlySet<string>): CallWatch {
  const state: WatchState = { read: 0, held: '', region: 'prose', call: '', firstCallAt: undefined, loopEnd: undefined, lastKey: undefined, copies: 0, lastEnd: 0 };
  return {
    push(delta) {
      if (state.loopEnd !== undefined) return '';
      const start = state.read + state.held.length;
      // Each delta is read once (with a held tail), however long the reply: never the whole again.
      readMarkers(state, state.held + delta, toolNames);
      return state.firstCallAt === undefined ? delta : delta.slice(0, Math.max(0, state.firstCallAt - start));
    },
    get firstCallAt() {
      return state.firstCallAt;
    },
    get loopEnd() {
      return state.loopEnd;
    },
    endLoop() {
      if (state.loopEnd === undefined && state.copies >= loopCopies) state.loopEnd = state.lastEnd;
      return state.loopEnd !== undefined;
    },
  };
}

/** Reads the tags in `work`, which starts at `state.read`, region by region, as the prose filter does (see scanProse). */
function readMarkers(state: WatchState, work: string, toolNames: ReadonlySet<string>): void {
  state.held = '';
  // Where the part of the open call region not yet added to `state.call` starts.
  let callFrom = 0;
  let cursor = 0;
  for (let at = work.indexOf('<'); at !== -1; at = work.indexOf('<', cursor)) {
    const marker = matchMarkerAt(work, at);
    if (marker === 'partial') {
      state.held = work.slice(at);
      break;
    }
    cursor = at + 1;
    const effect = marker === null ? 'content' : markerEffect(state.region, marker);
    if (marker === null || effect === 'content') continue;
    cursor = at + MARKERS[marker].length;
    if (isCallRegion(state.region)) state.call += work.slice(callFrom, cursor);
    if (effect === 'close' && isCallRegion(state.region)) closeCall(state, callKey(state.call, toolNames), state.read + cursor);
    if (state.loopEnd !== undefined) return;
    state.region = typeof effect === 'object' ? effect.open : 'prose';
    if (isCallRegion(state.region)) {
      state.call = '';
      callFrom = at;
      state.firstCallAt ??= state.read + at;
    }
  }
  const end = work.length - state.held.length;
  if (isCallRegion(state.region)) state.call += work.slice(callFrom, end);
  state.read += end;
}

function isCallRegion(region: RegionKind | 'prose'): boolean {
  return region === 'hermes' || region === 'lfm2';
}

/** A call closed at `end`: a fourth copy in a row of one ends the reading after the third. */
function closeCall(state: WatchState, key: string | undefined, end: number): void {
  state.copies = key !== undefined && key === state.lastKey ? state.copies + 1 : 1;
  state.lastKey = key;
  if (state.copies > loopCopies) state.loopEnd = state.lastEnd;
  state.lastEnd = end;
}

/** A closed call region as the run compares calls (see runCalls): its tools and canonical arguments. */
function callKey(region: string, toolNames: ReadonlySet<string>): string | undefined {
  const { calls, errors } = parseToolCalls(region, toolNames);
  if (calls.length === 0 || errors.length > 0) return undefined;
  return calls.map((call) => `${call.name}\u0000${canonicalJson(call.arguments)}`).join('\u0001');
}
