// What the own-turn cut (see createOwnTurn) knows between deltas, and the moves its phases make on
// it: kept in one place so that each phase takes it as an input rather than sharing a closure.
import { readCallBody, startBody, type CallBody } from '../call-body';
import type { RegionKind } from '../parsing/markup-markers';

export interface CutState {
  /** The unjudged tail: the start of a token, or white space after a turn end. Read again at the next delta. */
  held: string;
  /** Right after a turn-end token (and any white space since). */
  ended: boolean;
  /** The reply went on to a turn not its own: the rest is dropped. */
  over: boolean;
  /** Inside `<think>` (passed on as it is until `</think>`), a call, or neither. */
  region: RegionKind | 'prose';
  /** The call's body while its arguments are being read: null elsewhere, and past its brackets. */
  body: CallBody | null;
  /**
   * The last character before what is scanned now: a backtick makes a token that follows it code.
   * createOwnTurn sets it after each delta; readToken reads it for a token at a scan's first character.
   */
  before: string;
  /** What this scan passes on so far: scanReply hands it over and empties it as each scan ends. */
  shown: string;
}

/** The state before a reply's first delta. */
export function startCutState(): CutState {
  return { held: '', ended: false, over: false, region: 'prose', body: null, before: '', shown: '' };
}

/** Passes `work` on from `from` to `to`, where reading goes on. */
export function keepText(state: CutState, work: string, from: number, to: number): number {
  state.shown += work.slice(from, to);
  return to;
}

/** Holds the tail from `from` until more of the reply shows what it is; this scan is done. */
export function holdTail(state: CutState, work: string, from: number): number {
  state.held = work.slice(from);
  return work.length;
}

/** The reply went on to a turn not its own: nothing more is kept. */
export function cutTurn(state: CutState, work: string): number {
  state.over = true;
  return work.length;
}

/** Goes into a region: a call's body is read from its start. */
export function enterRegion(state: CutState, next: RegionKind | 'prose'): void {
  state.region = next;
  state.body = next === 'hermes' || next === 'lfm2' ? startBody() : null;
}

/** Reads text into the open call's body, if one is being read. */
export function readBody(state: CutState, text: string, from: number, to: number): void {
  if (state.body !== null && !readCallBody(state.body, text, from, to)) state.body = null;
}
