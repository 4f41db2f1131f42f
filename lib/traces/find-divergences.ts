import { canonicalJson } from '@webmcp-agents/local-agent';
import type { CallStatus, Divergence } from './divergence-schema';
import type { TraceStep, TraceTool } from './trace-schema';

/** A call the model wrote at a step, and what became of it. */
interface CallEntry {
  name: string;
  /** Absent for a call to an unknown tool: the trace keeps only its problem, without arguments. */
  argumentsKey?: string;
  status: CallStatus;
  message?: string;
  result?: { text: string; isError?: boolean };
}

const typeOrder: Record<Divergence['type'], number> = { 'tool-list': 0, call: 1, result: 2, steps: 3 };

/**
 * Where a replay differs from its recording, step by step: the tools the page offered, calls that
 * now fail (or now run), results the page now gives differently, and the number of steps. Pure,
 * and total: any two lists of steps give a list, in step order.
 */
export function findDivergences(recorded: readonly TraceStep[], replayed: readonly TraceStep[]): Divergence[] {
  const divergences: Divergence[] = [];
  const replayedByStep = new Map(replayed.map((step) => [step.step, step]));
  for (const recordedStep of recorded) {
    const replayedStep = replayedByStep.get(recordedStep.step);
    if (!replayedStep) continue;
    const toolList = compareTools(recordedStep.step, recordedStep.tools, replayedStep.tools);
    if (toolList) divergences.push(toolList);
    divergences.push(...compareCalls(recordedStep.step, callEntries(recordedStep), callEntries(replayedStep)));
  }
  const recordedCount = recorded.length;
  const replayedCount = replayed.length;
  if (recordedCount !== replayedCount) {
    divergences.push({ type: 'steps', step: Math.min(recordedCount, replayedCount) + 1, recorded: recordedCount, replayed: replayedCount });
  }
  return divergences.sort((a, b) => a.step - b.step || typeOrder[a.type] - typeOrder[b.type]);
}

/** The step number of the first divergence, if there is one. */
export function firstDivergentStep(divergences: readonly Divergence[]): number | undefined {
  return divergences.length > 0 ? Math.min(...divergences.map((divergence) => divergence.step)) : undefined;
}

function compareTools(step: number, recorded: readonly TraceTool[], replayed: readonly TraceTool[]): Divergence | undefined {
  const before = new Map(recorded.map((tool) => [tool.name, tool]));
  const after = new Map(replayed.map((tool) => [tool.name, tool]));
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after.values()]
    .filter((tool) => {
      const old = before.get(tool.name);
      return old !== undefined && (old.description !== tool.description || canonicalJson(old.parameters) !== canonicalJson(tool.parameters));
    })
    .map((tool) => tool.name);
  return added.length + removed.length + changed.length > 0 ? { type: 'tool-list', step, added, removed, changed } : undefined;
}

function compareCalls(step: number, recordedCalls: CallEntry[], replayedCalls: CallEntry[]): Divergence[] {
  const [recorded, replayed] = oneEntryPerAgreedMissingTool(recordedCalls, replayedCalls);
  const unused = new Set(replayed.keys());
  const take = (matches: (entry: CallEntry) => boolean) => {
    const index = [...unused].find((candidate) => matches(replayed[candidate]!));
    if (index === undefined) return undefined;
    unused.delete(index);
    return replayed[index];
  };
  const pairs: Array<[CallEntry | undefined, CallEntry | undefined]> = [];
  for (const entry of recorded) {
    const sameCall = take((other) => other.name === entry.name && other.argumentsKey === entry.argumentsKey);
    pairs.push([entry, sameCall ?? take((other) => other.name === entry.name)]);
  }
  for (const index of unused) pairs.push([undefined, replayed[index]]);
  return pairs.flatMap(([before, after]) => compareCall(step, before, after));
}

/**
 * Each call to a missing tool now has its own problem; traces recorded before hold one per missing
 * name. Where both sides say only that a tool was missing, they agree however many copies each
 * counts, so each keeps one entry for it. A tool the recording ran and the replay lacks (or the
 * other way round) still pairs call by call.
 */
function oneEntryPerAgreedMissingTool(recorded: CallEntry[], replayed: CallEntry[]): [CallEntry[], CallEntry[]] {
  const onlyMissing = (entries: CallEntry[]) =>
    new Set(entries.filter((entry) => entries.every((other) => other.name !== entry.name || other.status === 'unknown-tool')).map((entry) => entry.name));
  const missingInReplay = onlyMissing(replayed);
  const agreed = new Set([...onlyMissing(recorded)].filter((name) => missingInReplay.has(name)));
  const firstOfAgreed = (entries: CallEntry[]) =>
    entries.filter((entry, at) => !agreed.has(entry.name) || entries.findIndex((other) => other.name === entry.name) === at);
  return [firstOfAgreed(recorded), firstOfAgreed(replayed)];
}

function compareCall(step: number, before: CallEntry | undefined, after: CallEntry | undefined): Divergence[] {
  const name = (after ?? before)!.name;
  const recordedStatus = before?.status ?? 'not-run';
  const replayedStatus = after?.status ?? 'not-run';
  if (recordedStatus !== replayedStatus) {
    const message = after?.message ?? (replayedStatus === 'not-run' ? 'The replay did not make this call.' : undefined);
    return [{ type: 'call', step, name, recorded: recordedStatus, replayed: replayedStatus, ...(message ? { message } : {}) }];
  }
  if (before?.result && after?.result && !sameResult(before.result, after.result)) {
    return [{ type: 'result', step, name, recorded: before.result, replayed: after.result }];
  }
  return [];
}

/** The calls of a step: those the parser read (with what became of them) and those to unknown tools. */
function callEntries(step: TraceStep): CallEntry[] {
  // Calls run one after another: once one was cut off, the reply's later calls never began.
  let cutOff = false;
  const entries: CallEntry[] = step.calls.map((call) => {
    const problem = step.problems.find((candidate) => candidate.callId === call.callId);
    // A call's own `unknown-tool`: the page changed or removed its tool before it ran. A call with
    // neither a problem nor a result was made, and the run ended before it answered.
    const status: CallStatus = problem && problem.kind !== 'parse' ? problem.kind : call.result ? 'ran' : cutOff ? 'not-begun' : 'cut-off';
    cutOff ||= status === 'cut-off';
    return {
      name: call.name,
      argumentsKey: canonicalJson(call.arguments),
      status,
      ...(problem ? { message: problem.message } : {}),
      ...(call.result ? { result: { text: call.result.text, ...(call.result.isError ? { isError: true } : {}) } } : {}),
    };
  });
  for (const problem of step.problems) {
    if (problem.kind !== 'unknown-tool' || problem.callId) continue;
    entries.push({ name: problem.name ?? unknownToolName(problem.message), status: 'unknown-tool', message: problem.message });
  }
  return entries;
}

/** The parser names the tool it did not know in its message: `Unknown tool "x". Available now: …`. */
function unknownToolName(message: string): string {
  return /^Unknown tool "(.*?)"/.exec(message)?.[1] ?? '(unknown)';
}

function sameResult(a: { text: string; isError?: boolean }, b: { text: string; isError?: boolean }): boolean {
  return Boolean(a.isError) === Boolean(b.isError) && normaliseResult(a.text) === normaliseResult(b.text);
}

/** JSON results compare by value (key order and spacing aside); other text by its trimmed words. */
function normaliseResult(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text.trim();
  }
}
