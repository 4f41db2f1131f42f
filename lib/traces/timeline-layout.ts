import type { StoredTrace, TraceStep } from './trace-schema';

/** One bar of the waterfall, in milliseconds from the start of the run. */
export interface TimelineBar {
  /** `between`: before a step's reply, the time since the run began or the calls before ended. */
  kind: 'model' | 'tool' | 'wait' | 'between';
  step: number;
  startMs: number;
  durationMs: number;
  label: string;
}

interface TimelineSums {
  modelMs: number;
  toolMs: number;
  /** Time spent waiting for the person to allow a call. */
  waitMs: number;
  /** Time before each step's reply: the model loading and the page's tools read, or the page settling after calls. */
  betweenMs: number;
  /** From the request to the end of the run (or its last record). */
  wallMs: number;
  /** Absent when the engine reported no count at any step. */
  promptTokens?: number;
  completionTokens?: number;
}

export interface TimelineLayout {
  bars: TimelineBar[];
  steps: number[];
  totals: TimelineSums;
}

/** Shorter waits and gaps are not drawn: a call allowed by a rule, a prompt built at once. */
const minimumWaitMs = 50;

/** Where each step's model time, waits and tool time fall, for the waterfall chart. */
export function layoutTimeline({ run, steps }: StoredTrace): TimelineLayout {
  const end = run.endedAt ?? run.updatedAt;
  const offset = (time: number) => Math.max(0, time - run.startedAt);
  const bars: TimelineBar[] = [];
  const totals: TimelineSums = { modelMs: 0, toolMs: 0, waitMs: 0, betweenMs: 0, wallMs: offset(end) };
  // Where the bars drawn so far end: what comes before the next step's reply starts there.
  let drawnTo = 0;
  for (const [index, step] of steps.entries()) {
    const betweenMs = offset(step.startedAt) - drawnTo;
    if (betweenMs >= minimumWaitMs) {
      bars.push({ kind: 'between', step: step.step, startMs: drawnTo, durationMs: betweenMs, label: gapLabel(steps[index - 1]) });
      totals.betweenMs += betweenMs;
    }
    const firstBar = bars.length;
    const modelMs = step.modelMs ?? Math.max(0, (steps[index + 1]?.startedAt ?? end) - step.startedAt);
    bars.push({ kind: 'model', step: step.step, startMs: offset(step.startedAt), durationMs: modelMs, label: modelLabel(step) });
    totals.modelMs += modelMs;
    totals.promptTokens = addCount(totals.promptTokens, step.usage.promptTokens);
    totals.completionTokens = addCount(totals.completionTokens, step.usage.completionTokens);
    for (const call of step.calls) {
      const { approval, result } = call;
      // A question no one answered was still open when the run ended (a timeout, Stop, a new page).
      const answered = approval?.answeredAt !== undefined;
      const waitMs = approval ? Math.max(0, (approval.answeredAt ?? end) - approval.askedAt) : 0;
      // Every call is checked for approval; one allowed by a rule takes a few ms, a person far longer.
      if (approval && waitMs >= minimumWaitMs) {
        const label = `waiting for the person: ${call.name}${!answered ? ' (no answer came)' : approval.withdrawn ? ' (the page changed or removed the tool)' : approval.allowedBecause ? ' (ran without an answer)' : ''}`;
        bars.push({ kind: 'wait', step: step.step, startMs: offset(approval.askedAt), durationMs: waitMs, label });
        totals.waitMs += waitMs;
      }
      if (result) {
        bars.push({ kind: 'tool', step: step.step, startMs: offset(result.endedAt - result.durationMs), durationMs: result.durationMs, label: call.name });
        totals.toolMs += result.durationMs;
      } else if (index === steps.length - 1 && ranUnanswered(step, call)) {
        // It ran until the run ended (a timeout, Stop, a new page) without an answer.
        const startedAt = approval?.answeredAt ?? call.calledAt;
        const durationMs = Math.max(0, end - startedAt);
        bars.push({ kind: 'tool', step: step.step, startMs: offset(startedAt), durationMs, label: `${call.name} (no answer came)` });
        totals.toolMs += durationMs;
      }
    }
    for (const bar of bars.slice(firstBar)) drawnTo = Math.max(drawnTo, bar.startMs + bar.durationMs);
  }
  // A loop, not `Math.max(...bars)`: a long list of arguments overflows the stack.
  for (const bar of bars) totals.wallMs = Math.max(totals.wallMs, bar.startMs + bar.durationMs);
  return { bars, steps: steps.map((step) => step.step), totals };
}

/** What the time before a step's reply went to, by the step before it (none before the first). */
function gapLabel(before: TraceStep | undefined): string {
  if (!before) return 'before the first reply: the model loading, the page’s tools read';
  return before.calls.length > 0 ? 'before the reply: the page settling after the calls, the prompt built' : 'before the reply: the prompt built';
}

/** A call with no result that was let run: neither refused by a check nor declined by the person. */
function ranUnanswered(step: TraceStep, call: TraceStep['calls'][number]): boolean {
  if (call.approval && call.approval.approved !== true) return false;
  return !step.problems.some((problem) => problem.callId === call.callId);
}

function addCount(total: number | undefined, count: number | undefined): number | undefined {
  return count === undefined ? total : (total ?? 0) + count;
}

function modelLabel(step: TraceStep): string {
  const tokens = step.usage.completionTokens;
  return tokens !== undefined ? `model: ${tokens} tokens` : 'model';
}
