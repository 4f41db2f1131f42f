// Where a streamed reply's tagged calls open and close, read as the prose filter reads regions:
// prose after a call is held from the person, and a reply that writes the same calls over is ended.
import { createCallItems, type CallItems } from './call-items';
import { createLoopCheck, type LoopCheck } from './call-loop';
import { MARKERS, markerEffect, matchMarkerAt, type RegionKind } from './parsing/markup-markers';

/** Follows a reply's own turn, delta by delta, for its `<tool_call>` and `<|tool_call_start|>` calls. */
export interface CallWatch {
  /** Takes the next delta and returns the part of it before the reply's first call ('' once one opened). */
  push(delta: string): string;
  /** Where the first call's opening tag starts in the reply, once one has opened. */
  readonly firstCallAt: number | undefined;
  /**
   * Where the reply is plainly looping (see LoopCheck): cut after the third copy of the same call
   * in a row, once a fourth closed. A call closes at its own last bracket (`}`, `)`), each call of
   * a list in one tag too (`[f(x=1), f(x=1), …`); a tag where no call could be told, at its closing
   * tag or where the next call's tag opens. Nothing after the cut is read.
   */
  readonly loopCut: LoopCut | undefined;
  /**
   * Cuts the reading where the reply was cut off (the engine's token cap, or the end of the
   * context) while it wrote one call, or a run of calls, over and over; answers whether it was.
   */
  endLoop(): boolean;
}

/** Where a looping reply is cut: the model reads it back to `end`, its call tag closed with `closing`. */
export interface LoopCut {
  end: number;
  /**
   * What closes the call tag the cut falls in (`]<|tool_call_end|>`), '' where the cut comes after
   * its closing tag: a small model copies the markup it reads, a list left open too.
   */
  closing: string;
}

/** A call the reply closed: its text as written (see LoopCheck), and where the reply is cut after it. */
interface WatchedCall extends LoopCut {
  key: string;
}

/** What the watch knows between deltas. */
interface WatchState {
  /** Where in the reply `held` starts: all before it has been read. */
  read: number;
  /** A tail that may start a tag, read again with the next delta. */
  held: string;
  region: RegionKind | 'prose';
  /** The open call region's text, from its opening tag, as far as it has been read. */
  regionText: string;
  /** The calls found in the open call region as it streams in. */
  regionCalls: CallItems | undefined;
  /** The last call closed in the open call region. */
  lastCall: WatchedCall | undefined;
  firstCallAt: number | undefined;
  loopCut: WatchedCall | undefined;
  /** Every call the reply closed, in order. */
  loop: LoopCheck<WatchedCall>;
}

/** A watch for one reply, fed its own turn (see createOwnTurn). */
export function createCallWatch(): CallWatch {
  const state: WatchState = {
    read: 0,
    held: '',
    region: 'prose',
    regionText: '',
    regionCalls: undefined,
    lastCall: undefined,
    firstCallAt: undefined,
    loopCut: undefined,
    loop: createLoopCheck(),
  };
  return {
    push(delta) {
      if (state.loopCut !== undefined) return '';
      const start = state.read + state.held.length;
      // Each delta is read once (with a held tail), however long the reply: never the whole again.
      readMarkers(state, state.held + delta);
      return state.firstCallAt === undefined ? delta : delta.slice(0, Math.max(0, state.firstCallAt - start));
    },
    get firstCallAt() {
      return state.firstCallAt;
    },
    get loopCut() {
      return state.loopCut;
    },
    endLoop() {
      state.loopCut ??= state.loop.atCut();
      return state.loopCut !== undefined;
    },
  };
}

/** Reads the tags in `work`, which starts at `state.read`, region by region, as the prose filter does (see scanProse). */
function readMarkers(state: WatchState, work: string): void {
  state.held = '';
  // Where the part of the open call region not yet read into `state.regionText` starts.
  let regionFrom = 0;
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
      readRegion(state, work.slice(regionFrom, at), state.read + regionFrom);
      // An opening tag in a call region ends the call before it as well (see markerEffect).
      if (effect === 'close') state.regionText += MARKERS[marker];
      if (state.loopCut === undefined) closeRegion(state, effect === 'close', state.read + (effect === 'close' ? cursor : at));
    }
    if (state.loopCut !== undefined) return;
    state.region = typeof effect === 'object' ? effect.open : 'prose';
    if (isCallRegion(state.region)) openRegion(state, MARKERS[marker], state.read + at);
    regionFrom = cursor;
  }
  const end = work.length - state.held.length;
  if (isCallRegion(state.region)) readRegion(state, work.slice(regionFrom, end), state.read + regionFrom);
  state.read += end;
}

function isCallRegion(region: RegionKind | 'prose'): boolean {
  return region === 'hermes' || region === 'lfm2';
}

/** A call region opens at `at` with `tag`: the calls inside it are read afresh. */
function openRegion(state: WatchState, tag: string, at: number): void {
  state.regionText = tag;
  state.firstCallAt ??= at;
  const closeTag = state.region === 'lfm2' ? MARKERS.lfm2Close : MARKERS.hermesClose;
  state.regionCalls = createCallItems(({ text, end, lists }) => {
    state.lastCall = { key: text, end, closing: ']'.repeat(lists) + closeTag };
    addCall(state, state.lastCall);
  });
}

/** The next piece of the open call region's text, which starts at `at` in the reply. */
function readRegion(state: WatchState, piece: string, at: number): void {
  state.regionText += piece;
  state.regionCalls?.read(piece, at);
}

/**
 * The open call region ended at `end`, by its closing tag (`closed`) or the next call's tag. One
 * where no call could be told (`<tool_call>checkout</tool_call>`) is taken as one call, as written.
 */
function closeRegion(state: WatchState, closed: boolean, end: number): void {
  const last = state.lastCall;
  if (last === undefined) {
    addCall(state, { key: state.regionText.trim(), end, closing: '' });
  } else if (closed && state.regionCalls?.endsAfterCall) {
    // A cut after the region's last call keeps its closing tag as the model wrote it. The loop
    // check holds this very call (it may be the copy it would cut after): it moves the cut too.
    last.end = end;
    last.closing = '';
  }
  state.regionCalls = undefined;
  state.lastCall = undefined;
}

/** The next call the reply closed: once it is a fourth copy in a row, the reading ends. */
function addCall(state: WatchState, call: WatchedCall): void {
  state.loopCut ??= state.loop.add(call);
}
