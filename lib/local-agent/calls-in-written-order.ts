// Qwen's and LFM2's results carry no tool name: the model pairs each with its call by position, so
// a step's calls are answered in the order the model wrote them, and the person sees their cards
// in that order too.
import { writtenOrderOf, type WrittenCall } from './parsing/written-order';
import type { ParseResult } from './types';

export type { UnreadCall, WrittenCall } from './parsing/written-order';

/**
 * A step's calls in the order the model wrote them, as its parse read them: every copy of a
 * mistake in its own place. A format that reads replies its own way (see PromptFormat.parseReply)
 * gives no order: its calls come as it read them, then each of its errors once.
 */
export function callsInWrittenOrder(parsed: ParseResult): readonly WrittenCall[] {
  const order = writtenOrderOf(parsed);
  if (order !== undefined && accountsFor(order, parsed)) return order;
  return [...parsed.calls.map((_, callAt) => ({ callAt })), ...parsed.errors.map((_, errorAt) => ({ errorAt }))];
}

/**
 * Whether the order names each of the result's calls once and only errors it holds: a format's
 * parseReply may hand on parseToolCalls' result after changing it.
 */
function accountsFor(order: readonly WrittenCall[], { calls, errors }: ParseResult): boolean {
  const called = order.flatMap((written) => ('callAt' in written ? [written.callAt] : []));
  const erred = new Set(order.flatMap((written) => ('errorAt' in written ? [written.errorAt] : [])));
  const eachCallOnce = called.length === calls.length && called.every((callAt, place) => callAt === place);
  return eachCallOnce && erred.size === errors.length && [...erred].every((errorAt) => errorAt < errors.length);
}
