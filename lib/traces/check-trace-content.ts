import { traceCounts } from './trace-limits';
import type { StoredTrace } from './trace-schema';

/** No run was recorded before this (the agent is younger); an earlier time is a made-up one. */
const earliestTraceTime = Date.UTC(2020, 0, 1);

/** Clocks of two machines differ: a file from one a little ahead is still believed. */
const clockSkewMs = 24 * 60 * 60 * 1000;

/**
 * What a trace's shape cannot say is wrong with it: a time before 2020 or after `now` (a run
 * dated in the future would pass for the newest forever, and retention keeps the newest), an end
 * before the start, or arguments nested too deeply to show. Says where, or nothing when the trace is sound.
 */
export function checkTraceContent(trace: StoredTrace, now: number): string | undefined {
  for (const [path, time] of timesOf(trace)) {
    if (time < earliestTraceTime) return `${path}: ${new Date(time).toISOString()} is before 2020, when no run was recorded.`;
    if (time > now + clockSkewMs) return `${path}: ${new Date(time).toISOString()} is in the future.`;
  }
  const { startedAt, endedAt } = trace.run;
  if (endedAt !== undefined && endedAt < startedAt) return 'run.endedAt: the run ends before it starts.';
  for (const [path, value] of jsonValuesOf(trace)) {
    if (nestsDeeperThan(value, traceCounts.depth)) return `${path}: it is nested more than ${traceCounts.depth} levels deep.`;
  }
  return undefined;
}

function* timesOf({ run, steps }: StoredTrace): Generator<[string, number]> {
  yield ['run.startedAt', run.startedAt];
  if (run.endedAt !== undefined) yield ['run.endedAt', run.endedAt];
  yield ['run.updatedAt', run.updatedAt];
  for (const [index, step] of steps.entries()) {
    yield [`steps[${index}].startedAt`, step.startedAt];
    if (step.firstTokenAt !== undefined) yield [`steps[${index}].firstTokenAt`, step.firstTokenAt];
    for (const [callIndex, call] of step.calls.entries()) {
      const at = `steps[${index}].calls[${callIndex}]`;
      yield [`${at}.calledAt`, call.calledAt];
      if (call.approval) yield [`${at}.approval.askedAt`, call.approval.askedAt];
      if (call.approval?.answeredAt !== undefined) yield [`${at}.approval.answeredAt`, call.approval.answeredAt];
      if (call.result) yield [`${at}.result.endedAt`, call.result.endedAt];
    }
  }
}

function* jsonValuesOf({ steps }: StoredTrace): Generator<[string, unknown]> {
  for (const [index, step] of steps.entries()) {
    for (const [toolIndex, tool] of step.tools.entries()) yield [`steps[${index}].tools[${toolIndex}].parameters`, tool.parameters];
    for (const [callIndex, call] of step.calls.entries()) yield [`steps[${index}].calls[${callIndex}].arguments`, call.arguments];
    for (const [callIndex, call] of (step.parsed?.calls ?? []).entries()) yield [`steps[${index}].parsed.calls[${callIndex}].arguments`, call.arguments];
  }
}

/** Walks with a list, not by recursion: the value may be nested deeper than the stack allows. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}
