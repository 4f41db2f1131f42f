import { assertNever } from '@webmcp-agents/chat';
import type { AgentEvent } from '@webmcp-agents/local-agent';
import { capError, finiteOr, traceMessage, traceParsed, traceProblem, traceResult, traceTool, traceToolsNotShown, traceUsage } from './trace-fields';
import { traceAddress } from './trace-address';
import { capText, traceCounts, traceLimits } from './trace-limits';
import { runSizeBytes, stepBytes } from './measure-trace';
import { callMarksOf } from './call-marks';
import type { RunInfo } from './trace-recorder';
import type { TraceOutcome, TraceRun, TraceStep } from './trace-schema';

interface StepDraft {
  step: TraceStep;
  /** Deltas of a reply still streaming; joined only when the step is written. */
  rawParts: string[];
  proseParts: string[];
}

/** What changed since the last write: the run record and the steps that need writing again. */
export interface TraceChanges {
  run?: TraceRun;
  steps: TraceStep[];
}

/**
 * Folds a run's events into its trace, in memory: a run record and one record per step. Deltas are
 * only appended to a list, so recording costs next to nothing while a reply streams.
 */
export class TraceBuilder {
  readonly run: TraceRun;
  private readonly drafts = new Map<number, StepDraft>();
  private readonly dirtySteps = new Set<number>();
  /** Each step's size in bytes when last written, for the retention limit in megabytes. */
  private readonly sizes = new Map<number, number>();
  private runDirty = true;

  constructor(info: RunInfo) {
    this.run = {
      id: capText(info.runId, traceLimits.id),
      tabId: info.tabId,
      url: capText(traceAddress(info.url), traceLimits.url),
      origin: capText(info.origin, traceLimits.url),
      engineId: capText(info.engineId, traceLimits.id),
      model: capText(info.model, traceLimits.id),
      ...(info.format ? { format: info.format.slice(0, 40) } : {}),
      ...(info.recentTools?.length ? { recentTools: info.recentTools.slice(0, traceCounts.toolsPerStep).map((name) => capText(name, traceLimits.name)) } : {}),
      request: capText(info.request, traceLimits.message),
      startedAt: info.startedAt,
      stepCount: 0,
      sizeBytes: 0,
      updatedAt: info.startedAt,
    };
  }

  /** Folds one event in; says whether it only extended a streaming reply. */
  apply(event: AgentEvent, now: number): 'delta' | 'change' {
    if (event.type === 'text-delta' || event.type === 'prose-delta') {
      const draft = this.draftFor(event.step, now);
      if (event.type === 'text-delta') {
        draft.rawParts.push(event.text);
        draft.step.firstTokenAt ??= now;
      } else draft.proseParts.push(event.text);
      this.dirtySteps.add(event.step);
      // A run cut off while the model writes ends at its last token; the streaming flush writes the record.
      this.run.updatedAt = Math.max(this.run.updatedAt, now);
      return 'delta';
    }
    if (event.type === 'finish') {
      if (event.text) this.run.answer = capText(event.text, traceLimits.long);
      if (event.error) this.run.error = capError(event.error);
      this.touch(now);
      return 'change';
    }
    if (event.type === 'step-start') this.drafts.delete(event.step);
    const draft = this.draftFor(event.step, now);
    applyStepEvent(draft, event, now);
    this.dirtySteps.add(event.step);
    this.touch(now);
    return 'change';
  }

  end(outcome: TraceOutcome, endedAt: number, notice?: string): void {
    this.run.outcome = outcome;
    this.run.endedAt = endedAt;
    if (notice) this.run.notice = capText(notice, traceLimits.message);
    this.touch(endedAt);
  }

  /** The records to write now, as plain data; clears the changed marks. */
  takeChanges(): TraceChanges {
    const steps = [...this.dirtySteps].map((step) => materialise(this.drafts.get(step)!));
    this.dirtySteps.clear();
    for (const step of steps) this.sizes.set(step.step, stepBytes(step));
    const runDirty = this.runDirty || steps.length > 0;
    this.runDirty = false;
    if (!runDirty) return { steps };
    // Kept empty too: a run without them was recorded before they were, and the list says so.
    this.run.callMarks = callMarksOf([...this.drafts.values()].map((draft) => draft.step));
    this.run.sizeBytes = runSizeBytes(this.run, [...this.sizes.values()].reduce((sum, size) => sum + size, 0));
    return { run: { ...this.run }, steps };
  }

  /** Every step as it stands, in order. */
  steps(): TraceStep[] {
    return [...this.drafts.keys()].sort((a, b) => a - b).map((step) => materialise(this.drafts.get(step)!));
  }

  /** The run goes on though nothing happened (it waits for the person): one cut off now ended now. */
  stillGoing(now: number): void {
    this.touch(now);
  }

  private touch(now: number): void {
    this.run.updatedAt = Math.max(this.run.updatedAt, now);
    this.runDirty = true;
  }

  private draftFor(step: number, now: number): StepDraft {
    let draft = this.drafts.get(step);
    if (!draft) {
      draft = { step: emptyStep(this.run.id, step, now), rawParts: [], proseParts: [] };
      this.drafts.set(step, draft);
      this.run.stepCount = Math.max(this.run.stepCount, step);
    }
    return draft;
  }
}

function applyStepEvent(draft: StepDraft, event: Exclude<AgentEvent, { type: 'text-delta' | 'prose-delta' | 'finish' }>, now: number) {
  const { step } = draft;
  const call = 'callId' in event && event.callId ? step.calls.find((candidate) => candidate.callId === event.callId) : undefined;
  switch (event.type) {
    case 'step-start':
      step.tools = event.tools.map(traceTool);
      step.messages = event.messages.map(traceMessage);
      if (event.refits) step.refits = event.refits;
      Object.assign(step, traceToolsNotShown(event));
      return;
    case 'prose-replace':
      // The step's prose as the person is left seeing it.
      draft.proseParts = [event.text];
      return;
    case 'step-end':
      endStep(draft, event);
      return;
    case 'tool-call':
      step.calls.push({ callId: event.callId, name: capText(event.name, traceLimits.name), arguments: { ...event.arguments }, calledAt: now });
      return;
    case 'tool-approval-request':
      if (call) call.approval = { askedAt: now };
      return;
    case 'tool-approval-response':
      if (call) {
        const { withdrawn, allowedBecause } = event;
        call.approval = { askedAt: call.approval?.askedAt ?? now, answeredAt: now, approved: event.approved, ...(withdrawn ? { withdrawn } : {}), ...(allowedBecause ? { allowedBecause: capText(allowedBecause, traceLimits.message) } : {}) };
      }
      return;
    case 'tool-result':
      if (call) call.result = traceResult(event.output, event.durationMs, now);
      return;
    case 'tool-error':
      step.problems.push(traceProblem(event));
      return;
    case 'results-read':
      noteResultsRead(step, event);
      return;
    default:
      assertNever(event);
  }
}

/** The step's reply as it ended: one its engine ended with an error, or the person stopped, stays cut off, as it streamed, but with what it cost. */
function endStep(draft: StepDraft, event: Extract<AgentEvent, { type: 'step-end' }>): void {
  const { step } = draft;
  if (event.thoughts) step.thoughts = capText(event.thoughts, traceLimits.long);
  if (event.stopped) step.stopped = true;
  else if (!event.failed) {
    draft.rawParts = [];
    Object.assign(step, { raw: capText(event.raw, traceLimits.long), complete: true, parsed: traceParsed(event.parsed) });
    if (event.loopKept) step.loopKept = true;
  }
  step.usage = traceUsage(event.usage);
  step.modelMs = finiteOr(event.modelMs);
}

/** How much of each result the model read: told once, at the step that made the calls, after it answered a prompt showing them. */
function noteResultsRead(step: TraceStep, event: Extract<AgentEvent, { type: 'results-read' }>): void {
  for (const { callId, characters, of } of event.results) {
    const cut = step.calls.find((candidate) => candidate.callId === callId);
    if (cut && Number.isInteger(characters) && Number.isInteger(of) && characters >= 0 && characters < of) cut.read = { characters, of };
  }
}

function emptyStep(runId: string, step: number, now: number): TraceStep {
  return { runId, step, startedAt: now, tools: [], messages: [], raw: '', complete: false, prose: '', calls: [], problems: [], usage: {} };
}

function materialise(draft: StepDraft): TraceStep {
  const { step } = draft;
  const raw = step.complete ? step.raw : capText(draft.rawParts.join(''), traceLimits.long);
  return { ...step, raw, prose: capText(draft.proseParts.join(''), traceLimits.long), calls: step.calls.map((call) => ({ ...call })) };
}
