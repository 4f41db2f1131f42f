import type { TraceStep } from './trace-schema';

/**
 * What went wrong with a run's calls, which the run list filters by: a tool failed, the person
 * declined a call, or the agent refused one the model got wrong (an unknown tool, arguments its
 * schema refuses, a call it could not read, a repeat).
 */
export const callMarks = ['failed', 'declined', 'refused'] as const;
export type CallMark = (typeof callMarks)[number];

/** The marks a run's steps earn, in `callMarks` order; none where every call went through. */
export function callMarksOf(steps: Iterable<Pick<TraceStep, 'calls' | 'problems'>>): CallMark[] {
  const found = new Set<CallMark>();
  for (const { calls, problems } of steps) {
    if (calls.some((call) => call.result?.isError)) found.add('failed');
    for (const problem of problems) {
      if (problem.kind === 'declined') found.add('declined');
      // A call whose tool the page changed or removed after the step showed it was no slip of the model's.
      else if (!(problem.kind === 'unknown-tool' && problem.withdrawn)) found.add('refused');
    }
  }
  return callMarks.filter((mark) => found.has(mark));
}
