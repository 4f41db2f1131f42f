// Where a streamed reply's tagged calls open and close, read as the prose filter reads regions:
// prose after a call is held from the person, and a reply that writes the same calls over is ended.
import { createCallItems } from './call-items';
import { createLoopCheck, type LoopCheck } from './call-loop';
import { canonicalJson } from './json-values';
import { parseToolCalls } from './parse-tool-calls';
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/** Follows a reply's own turn, delta by delta, for its `<tool_call>` and `<|tool_call_start|>` calls. */
export interface CallWatch {
  /** Takes the next delta and returns the part of it before the reply's first call ('' once one opened). */
  push(delta: string): string;
  /** Where the first call's opening tag starts in the reply, once one has opened. */
  readonly firstCallAt: number | undefined;
  /**
   * Where the reply is plainly looping (see LoopCheck): the end of the third copy of the same call
   * in a row, or of the first copy of a run of calls (`A, B, A, B, …`), once a fourth closed. A
   * call closes at its closing tag, where the next call's tag opens, or, inside one call tag,
   * where the next call of a list starts (`[f(x=1), f(x=1), …`). Nothing after it is read.
   */
  readonly loopEnd: number | undefined;
  /**
   * Ends the reading where the reply was cut off (the engine's token cap) before a fourth copy
   * could close, if a third had; answers whether the reply ends looping.
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
  /** The calls closed inside the open call region, read as it streams in. */
  inCall: { read: (piece: string, at: number) => void; loop: LoopCheck } | undefined;
  firstCallAt: number | undefined;
  loopEnd: number | undefined;
  /** The call regions the reply closed, in order. */
  calls: LoopCheck;
}

/**
 * A watch for one reply, fed its own turn (see createOwnTurn). `toolNames`: the tools offered at
 * the step, by which a closed call is read to compare it.
 */
export function createCallWatch(toolNames: ReadonlySet<string>): CallWatch {
  const state: WatchState = { read: 0, held: '', region: 'prose', call: '', inCall: undefined, firstCallAt: undefined, loopEnd: undefined, calls: createLoopCheck() };
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
      // The calls closed inside the call region the cap cut come after all those closed before it.
      state.loopEnd ??= state.inCall?.loop.atCut() ?? state.calls.atCut();
      return state.loopEnd !== undefined;
    },
  };
}

/** Reads the tags in `work`, which starts at `state.read`, region by region, as the prose filter does (see scanProse). */
function readMarkers(state: WatchState, work: string, toolNames: ReadonlySet<string>): void {
  state.held = '';
  // Where the part of the open call region not yet read into `state.call` starts.
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
    if (isCallRegion(state.region)) {
      readCall(state, work.slice(callFrom, at), state.read + callFrom);
      // An opening tag in a call region ends the call before it as well (see markerEffect).
      if (effect === 'close') state.call += MARKERS[marker];
      if (state.loopEnd === undefined) closeCall(state, callKey(state.call, toolNames), state.read + (effect === 'close' ? cursor : at));
    }
    if (state.loopEnd !== undefined) return;
    state.region = typeof effect === 'object' ? effect.open : 'prose';
    if (isCallRegion(state.region)) openCall(state, MARKERS[marker], state.read + at);
    callFrom = cursor;
  }
  const end = work.length - state.held.length;
  if (isCallRegion(state.region)) readCall(state, work.slice(callFrom, end), state.read + callFrom);
  state.read += end;
}

function isCallRegion(region: RegionKind | 'prose'): boolean {
  return region === 'hermes' || region === 'lfm2';
}

/** A call region opens at `at` with `tag`: the calls inside it are read afresh. */
function openCall(state: WatchState, tag: string, at: number): void {
  state.call = tag;
  state.firstCallAt ??= at;
  const loop = createLoopCheck();
  const read = createCallItems((text, end) => {
    state.loopEnd ??= loop.add(text, end);
  });
  state.inCall = { read, loop };
}

/** The next piece of the open call region's text, which starts at `at` in the reply. */
function readCall(state: WatchState, piece: string, at: number): void {
  state.call += piece;
  state.inCall?.read(piece, at);
}

/** A call region closed at `end`: a fourth copy in a row of one call, or of a run of calls, ends the reading. */
function closeCall(state: WatchState, key: string, end: number): void {
  state.inCall = undefined;
  state.loopEnd = state.calls.add(key, end);
}

/**
 * A closed call region as the run compares calls (see runCalls): its tools and canonical
 * arguments. One the parse refuses (a tool not offered, arguments it cannot read) is compared as
 * written: a loop writes the very same text again.
 */
function callKey(region: string, toolNames: ReadonlySet<string>): string {
  const { calls, errors } = parseToolCalls(region, toolNames);
  if (calls.length === 0 || errors.length > 0) return region.trim();
  return calls.map((call) => `${call.name}\u0000${canonicalJson(call.arguments)}`).join('\u0001');
}
