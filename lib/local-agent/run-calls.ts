// The calls the model wrote at a step, checked and run in order, with what counts as the same call.
import type { FinishReason } from './agent-events';
import { countCall, noteCall, type Run } from './agent-run';
import { callsInWrittenOrder } from './calls-in-written-order';
import { canonicalJson } from './json-values';
import type { ReadStep } from './read-reply';
import { unreadCallReplier } from './reply-to-unread-calls';
import { runToolCall } from './run-tool-call';
import type { CallReply } from './tool-output-text';
import type { ParsedCall } from './types';
import { withoutNullOptionals } from './without-null-optionals';

/** What the model reads of a step's calls, in the order it wrote them, or the reason the run ends there. */
export type StepReplies = { replies: CallReply[] } | { stop: FinishReason };

/** What the model reads of one call, or the reason the run ends there. */
export type CallAnswer = { reply: CallReply } | { stop: FinishReason };

/**
 * Answers the step's calls in the order the model wrote them: runs those to shown tools (see
 * runToolCall) and replies to those it got wrong. Each reply comes in its call's place, as Qwen and
 * LFM2 pair results with calls by position, and the person sees the calls' cards in that order.
 */
export async function runCalls(run: Run, step: ReadStep): Promise<StepReplies> {
  const runShown = shownCallRunner(run, step);
  const replyToUnread = unreadCallReplier(run, step);
  const replies: CallReply[] = [];
  for (const written of callsInWrittenOrder(step.parsed)) {
    const answer = 'callAt' in written ? await runShown(written.callAt) : replyToUnread(written);
    if ('stop' in answer) return answer;
    replies.push(answer.reply);
  }
  return { replies };
}

/** Checks and runs the step's calls to shown tools, given by their place among the parse's calls. */
function shownCallRunner(run: Run, { tools, shownTools, parsed }: ReadStep): (index: number) => Promise<CallAnswer> {
  const { step, signal } = run;
  // The calls of this reply since another call last ran. One written again runs once, and
  // counts once toward the repeated-call stop: a stutter within a reply is not the model going
  // round in circles. Once another call ran, the page may have changed (`get_cart`,
  // `remove_item`, `get_cart`), so the same call again runs again, a loop only where it answers as
  // before (see countCall).
  let sinceLastRun = new Set<string>();
  return async (index) => {
    const asked = parsed.calls[index]!;
    const compact = shownTools.find((tool) => tool.name === asked.name)!;
    // What the page is sent, and what counts as the same call: an optional null left out.
    const call = withoutNullOptionals(asked, compact.parameters);
    const key = callKey(call);
    const earlierInReply = sinceLastRun.has(key);
    sinceLastRun.add(key);
    const timesCalled = earlierInReply ? 0 : countCall(run, key);
    const callId = `${step}.${index + 1}`;
    const tool = tools.find((candidate) => candidate.name === call.name)!;
    const context = { step, callId, signal, timesCalled, declinedBefore: run.declined.has(key), earlierInReply };
    const outcome = await runToolCall(call, compact, tool, context, run.host);
    if ('stop' in outcome) return { stop: outcome.stop };
    // A call the page withdrew (its tool changed or went before it ran) is the page's doing: made
    // again, as the model is told to, it is no loop, and counts toward none.
    if (!earlierInReply && !('withdrawn' in outcome)) noteCall(run, key, 'output' in outcome ? outcome.output.text : undefined);
    if ('declined' in outcome) run.declined.add(key);
    if ('output' in outcome) sinceLastRun = new Set([key]);
    run.recent.unshift(call.name);
    return { reply: 'reply' in outcome ? outcome.reply : { name: call.name, output: outcome.output, callId } };
  };
}

/** A call as one: its tool and its arguments, whatever the order the model wrote their keys in. */
function callKey(call: ParsedCall): string {
  return `${call.name}\u0000${canonicalJson(call.arguments)}`;
}
