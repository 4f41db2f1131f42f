import { z } from 'zod';
import { isPlainRecord } from '../messaging/is-plain-record';
import { lazySchema } from '../messaging/lazy-schema';
import { modelUsageSchema } from '../engines/model-usage-schema';
import { latestTime, traceCounts as counts, traceLimits as limits } from './trace-limits';
import { callMarks } from './call-marks';
import { traceOutcomes } from './trace-outcomes';

/**
 * Each schema here is built the first time a trace is checked (see lazySchema): the service worker
 * loads this module at every start, and most starts check no trace.
 */
const traceOutcomeSchema = lazySchema(() => z.enum(traceOutcomes));

const text = (max: number) => z.string().max(max);
// Checked, not rebuilt, so that a property named "__proto__" survives export and import (see isPlainRecord).
const jsonObject = lazySchema(() => z.custom<Record<string, unknown>>(isPlainRecord, { error: 'Invalid input: expected a JSON object' }));
const time = lazySchema(() => z.number().min(0).max(latestTime, 'not a date'));
const duration = lazySchema(() => z.number().min(0));
const atMost = <T extends z.ZodType>(item: T, max: number, what: string) => z.array(item).max(max, `a step holds at most ${max} ${what}`);

/** A tool as the model was shown it at a step, with the score that ranked it there. */
const traceToolSchema = lazySchema(() =>
  z.object({
    name: text(limits.name),
    description: text(limits.message),
    parameters: jsonObject(),
    score: z.number(),
  }),
);

/** A tool the page offered that the model was not shown at a step, with its score. */
const traceScoredNameSchema = lazySchema(() => z.object({ name: text(limits.name), score: z.number() }));

const traceMessageSchema = lazySchema(() =>
  z.object({
    role: z.enum(['system', 'user', 'assistant']),
    content: text(limits.long),
  }),
);

const traceParsedSchema = lazySchema(() =>
  z.object({
    text: text(limits.long),
    calls: atMost(z.object({ name: text(limits.name), arguments: jsonObject() }), counts.callsPerStep, 'parsed calls'),
    errors: atMost(text(limits.message), counts.callsPerStep, 'parse errors'),
  }),
);

/** A call the model made, the person's answer if they were asked, and what the page returned. */
const traceCallSchema = lazySchema(() =>
  z.object({
    callId: text(limits.id),
    name: text(limits.name),
    arguments: jsonObject(),
    calledAt: time(),
    approval: z
      // `withdrawn`: nobody answered, as the page took the tool away meanwhile (`answeredAt` is when).
      // `allowedBecause`: nobody answered, and the call ran as the question no longer stood (the site allowed meanwhile).
      .object({
        askedAt: time(),
        answeredAt: time().optional(),
        approved: z.boolean().optional(),
        withdrawn: z.boolean().optional(),
        allowedBecause: text(limits.message).optional(),
      })
      .optional(),
    result: z
      .object({
        /** The page's text, cut at the trace's limit. */
        text: text(limits.result),
        isError: z.boolean().optional(),
        /** No answer came: the document that ran the tool went first (see `ToolOutput.noAnswer`). */
        noAnswer: z.boolean().optional(),
        /** The length before cutting. */
        length: z.number().int().min(0),
        durationMs: duration(),
        endedAt: time(),
      })
      .optional(),
    /**
     * Where the prompt could carry only part of the result: the model read its first `characters`
     * of `of`. Absent where it read all of it, and in traces recorded before this was kept.
     */
    read: z.object({ characters: z.number().int().min(0), of: z.number().int().min(0) }).optional(),
  }),
);

/**
 * A parse error, a rejected call, a declined one, a repeat, or the same call written twice in one
 * reply (not run the second time): what the model was told to fix.
 */
const traceProblemSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['parse', 'unknown-tool', 'invalid-arguments', 'declined', 'repeated', 'duplicate']),
    message: text(limits.message),
    /** An `unknown-tool` of a call whose tool the page changed or removed after the step showed it. */
    withdrawn: z.boolean().optional(),
    callId: text(limits.id).optional(),
    name: text(limits.name).optional(),
  }),
);

/** One model reply and everything it led to. */
export const traceStepSchema = lazySchema(() =>
  z.object({
    runId: text(limits.id),
    step: z.number().int().min(1).max(counts.steps),
    startedAt: time(),
    tools: atMost(traceToolSchema(), counts.toolsPerStep, 'tools'),
    /** The prompt exactly as the engine was given it. */
    messages: atMost(traceMessageSchema(), counts.messagesPerStep, 'prompt messages'),
    /** What the model wrote; while a step streams, what it had written so far. */
    raw: text(limits.long),
    /**
     * What the model thought apart from its reply, as the engine gave it apart (a server's
     * reasoning; kept once the step ended); absent where none came, and in traces recorded before.
     */
    thoughts: text(limits.long).optional(),
    /** False when the step was cut off before the model finished its reply. */
    complete: z.boolean(),
    /**
     * The engine ended the reply with an error (its length limit, mostly) while it wrote one call, or
     * a run of calls, over and over, and the run kept it to where the loop ends; absent otherwise,
     * and in traces recorded before.
     */
    loopKept: z.boolean().optional(),
    /** The run was stopped while the model wrote this reply (by the person, a navigation, the tab closed or the agent turned off); absent otherwise, and in traces recorded before. */
    stopped: z.boolean().optional(),
    prose: text(limits.long),
    parsed: traceParsedSchema().optional(),
    calls: atMost(traceCallSchema(), counts.callsPerStep, 'calls'),
    problems: atMost(traceProblemSchema(), counts.callsPerStep, 'problems'),
    usage: modelUsageSchema(),
    modelMs: duration().optional(),
    firstTokenAt: time().optional(),
    /** How many times the prompt was fitted again because the model found it too long. */
    refits: z.number().int().min(1).max(10).optional(),
    /**
     * How many tools the page offered at this step, how many of them the model was not shown, and
     * the best scored of those. Absent in traces recorded before these were kept.
     */
    offeredCount: z.number().int().min(0).optional(),
    notShownCount: z.number().int().min(0).optional(),
    notShown: atMost(traceScoredNameSchema(), counts.notShownPerStep, 'tools not shown').optional(),
  }),
);

/** A run as the list shows it: who, where, with what, and how it ended. */
export const traceRunSchema = lazySchema(() =>
  z.object({
    id: text(limits.id).min(1),
    tabId: z.number().int(),
    url: text(limits.url),
    origin: text(limits.url),
    engineId: text(limits.id),
    model: text(limits.id),
    /** The prompt format of the model, when the recorder was told it. */
    format: text(40).optional(),
    /** The tools the turn before called, latest first, which the run's ranking favoured; absent in older traces. */
    recentTools: z.array(text(limits.name)).max(counts.toolsPerStep, `a run names at most ${counts.toolsPerStep} recent tools`).optional(),
    request: text(limits.message),
    startedAt: time(),
    endedAt: time().optional(),
    outcome: traceOutcomeSchema().optional(),
    /** What the side panel said under the turn, where it said more than the answer; absent in older traces. */
    notice: text(limits.message).optional(),
    /** The prose of the last reply. */
    answer: text(limits.long).optional(),
    error: z.object({ name: text(limits.id), message: text(limits.message) }).optional(),
    stepCount: z.number().int().min(0).max(counts.steps),
    /** What went wrong with its calls (see call-marks), worked out from its steps; empty where nothing did, absent in older traces. */
    callMarks: z.array(z.enum(callMarks)).max(callMarks.length).optional(),
    /** The bytes the run takes (see measure-trace), for the retention limit; recomputed on import. */
    sizeBytes: z.number().int().min(0),
    updatedAt: time(),
    /**
     * When the run came here from a file: it was not recorded in this browser, whatever it says (a
     * file can be written by hand). Set on import, never read from the file; absent for a run recorded here.
     */
    importedAt: time().optional(),
  }),
);

/** A run with its steps, in order. */
export const storedTraceSchema = lazySchema(() =>
  z.object({
    run: traceRunSchema(),
    steps: z.array(traceStepSchema()).max(counts.steps, `a run holds at most ${counts.steps} steps`),
  }),
);

export type TraceOutcome = z.infer<ReturnType<typeof traceOutcomeSchema>>;
export type TraceTool = z.infer<ReturnType<typeof traceToolSchema>>;
export type TraceMessage = z.infer<ReturnType<typeof traceMessageSchema>>;
export type TraceCall = z.infer<ReturnType<typeof traceCallSchema>>;
export type TraceProblem = z.infer<ReturnType<typeof traceProblemSchema>>;
export type TraceStep = z.infer<ReturnType<typeof traceStepSchema>>;
export type TraceRun = z.infer<ReturnType<typeof traceRunSchema>>;
export type StoredTrace = z.infer<ReturnType<typeof storedTraceSchema>>;

export function isTraceOutcome(value: string): value is TraceOutcome {
  return (traceOutcomes as readonly string[]).includes(value);
}
