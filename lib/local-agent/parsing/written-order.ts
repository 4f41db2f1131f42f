// Qwen's and LFM2's results carry no tool name: the model pairs each with its call by position, so
// the loop answers a reply's calls in the order the model wrote them. The parse knows that order
// as it reads; its result's fields are documented (and compared whole), so the order is kept
// out of sight on the result rather than among them.
import type { ParseResult } from '../types';

/**
 * A call the model got wrong: `errorAt`, the place of its message among the parse's errors (copies
 * of one mistake share it), with the arguments it wrote where they could be read.
 */
export interface UnreadCall {
  errorAt: number;
  arguments?: Record<string, unknown>;
}

/** One call the model wrote: to an offered tool (`callAt`, its place among the parse's calls), or one it got wrong. */
export type WrittenCall = { callAt: number } | UnreadCall;

/** Where a result keeps its order: a property no enumeration sees, so a result compares as documented. */
const writtenOrder = Symbol('written order');

/** Keeps the order in which the model wrote the calls and mistakes of `result`, and returns it. */
export function withWrittenOrder(result: ParseResult, order: readonly WrittenCall[]): ParseResult {
  // Not a WeakMap: an entry per parse (one per streamed fence, too) cost a third of the parse's time.
  return Object.defineProperty(result, writtenOrder, { value: order });
}

/** The order kept for a result parseToolCalls gave; undefined for any other (a format's own parseReply). */
export function writtenOrderOf(result: ParseResult): readonly WrittenCall[] | undefined {
  return (result as { [writtenOrder]?: readonly WrittenCall[] })[writtenOrder];
}
