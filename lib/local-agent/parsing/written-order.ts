// Qwen's and LFM2's results carry no tool name: the model pairs each with its call by position, so
// the loop answers a reply's calls in the order the model wrote them. The parse knows that order
// as it reads; its result's fields are documented (and compared whole), so the order is kept
// beside the result rather than in it.
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

const orders = new WeakMap<ParseResult, readonly WrittenCall[]>();

/** Keeps the order in which the model wrote the calls and mistakes of `result`, and returns it. */
export function withWrittenOrder(result: ParseResult, order: readonly WrittenCall[]): ParseResult {
  orders.set(result, order);
  return result;
}

/** The order kept for a result parseToolCalls gave; undefined for any other (a format's own parseReply). */
export function writtenOrderOf(result: ParseResult): readonly WrittenCall[] | undefined {
  return orders.get(result);
}
