import { z } from 'zod';
import { isPlainRecord } from '../messaging/is-plain-record';
import { lazySchema } from '../messaging/lazy-schema';
import { divergenceSchema } from './divergence-schema';
import { traceFileSchema } from './trace-file';
import { storedTraceSchema, traceRunSchema } from './trace-schema';

const runId = lazySchema(() => z.string().min(1).max(200));

/** The most runs one request names; the client sends more in turn. */
export const maxRunIdsPerRequest = 10_000;

/**
 * Trace viewer → background, one request a message. Every type starts with `traces-`. Each schema
 * of this file is built the first time its message travels (see lazySchema): the service worker
 * loads this module at every start, and most starts see no trace viewer.
 */
export const traceRequestSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('traces-list') }),
    z.object({ type: z.literal('traces-get'), runId: runId() }),
    z.object({ type: z.literal('traces-delete'), runIds: z.array(runId()).max(maxRunIdsPerRequest) }),
    z.object({ type: z.literal('traces-delete-all') }),
    /** The file's text (or its JSON, parsed); the background checks it before it changes anything. */
    z.object({ type: z.literal('traces-import'), file: z.unknown() }),
    /** The same, for a file the viewer handed over by way of IndexedDB (see `handOverFile`). */
    z.object({ type: z.literal('traces-import-handed'), key: z.string().min(1).max(100) }),
    /** All runs when `runIds` is absent. */
    z.object({ type: z.literal('traces-export'), runIds: z.array(runId()).max(maxRunIdsPerRequest).optional() }),
    /** The open tabs whose page offers tools: where a run can be replayed. */
    z.object({ type: z.literal('traces-replay-tabs') }),
  ]),
);

/** `title`: the tab's, where the browser told it; a person tells tabs apart by it. */
const replayTabSchema = lazySchema(() =>
  z.object({ tabId: z.number().int(), url: z.string(), origin: z.string(), title: z.string().optional(), toolCount: z.number().int() }),
);

/**
 * `replaced`: of the runs imported, those that were here before; `unchanged`: of those, the ones
 * here as last changed when the file's copy was; `kept`: runs of the file already here in a later
 * state, left as they are; `runIds`: every run of the file, imported or kept as it was here.
 */
const importedSchema = lazySchema(() =>
  z.object({
    imported: z.number().int(),
    replaced: z.number().int(),
    unchanged: z.number().int(),
    kept: z.number().int(),
    runIds: z.array(z.string()),
  }),
);

const deletedSchema = lazySchema(() => z.object({ deleted: z.number().int(), skippedRunning: z.number().int() }));

/** What each request answers when it succeeds. */
export const traceResponseSchemas = {
  'traces-list': lazySchema(() => z.object({ runs: z.array(traceRunSchema()) })),
  'traces-get': lazySchema(() => z.object({ trace: storedTraceSchema().optional() })),
  'traces-delete': deletedSchema,
  'traces-delete-all': deletedSchema,
  'traces-import': importedSchema,
  'traces-import-handed': importedSchema,
  'traces-export': lazySchema(() => z.object({ file: traceFileSchema() })),
  'traces-replay-tabs': lazySchema(() => z.object({ tabs: z.array(replayTabSchema()) })),
} as const;

/** Errors cross contexts as `{name, message}` and are checked by name. */
const traceErrorSchema = lazySchema(() => z.object({ name: z.string(), message: z.string() }));

export type TraceRequest = z.infer<ReturnType<typeof traceRequestSchema>>;
export type TraceRequestType = TraceRequest['type'];
export type TraceResponseData<T extends TraceRequestType> = z.infer<ReturnType<(typeof traceResponseSchemas)[T]>>;
export type TraceResponse<T extends TraceRequestType = TraceRequestType> =
  | { ok: true; data: TraceResponseData<T> }
  | { ok: false; error: z.infer<ReturnType<typeof traceErrorSchema>> };
export type ReplayTab = z.infer<ReturnType<typeof replayTabSchema>>;

/** Whether a message is meant for the trace service at all (others are left to their listeners). */
export function isTraceMessage(message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith('traces-');
}

/** The port a viewer opens to replay a run. */
export const traceReplayPortName = 'trace-replay';

/** Viewer → background, on the replay port. */
export const replayClientMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** `origin`: the site the viewer's list showed for the tab; the replay starts only while the tab still shows it. */
    z.object({ type: z.literal('start'), runId: runId(), tabId: z.number().int(), origin: z.string().max(2_000).optional() }),
    z.object({ type: z.literal('confirm'), callId: z.string().max(200), allow: z.boolean() }),
    z.object({ type: z.literal('cancel') }),
  ]),
);

/** Why a replayed call waits for the person, in the side panel's words for the same cases. */
const replayAskReasonSchema = lazySchema(() => z.enum(['consequential', 'other-site', 'confirm-all', 'not-read-only']));

/** A call that waits for the person: what, why, and on which site the tab shows now. */
const replayCallSchema = lazySchema(() =>
  z.object({
    step: z.number().int(),
    callId: z.string(),
    name: z.string(),
    /** Checked, not rebuilt, so that a property named "__proto__" reaches the viewer (see isPlainRecord). */
    arguments: z.custom<Record<string, unknown>>(isPlainRecord, { error: 'Invalid input: expected a JSON object' }),
    reason: replayAskReasonSchema(),
    origin: z.string(),
  }),
);

/** Background → viewer, on the replay port. */
export const replayServerMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** What the replay is doing now, in words. */
    z.object({ type: z.literal('progress'), step: z.number().int(), text: z.string() }),
    /**
     * A call the replay asks about (a tool not read-only, or of another site's frame; every tool,
     * with "confirm every call") waits for the person's yes.
     */
    z.object({ type: z.literal('confirm-request'), call: replayCallSchema() }),
    z.object({
      type: z.literal('done'),
      finishReason: z.string(),
      /** How many steps the replay took (its steps themselves stay in the background: they can be large). */
      stepCount: z.number().int(),
      divergences: z.array(divergenceSchema()),
      /** Why it stopped before its end, as a live run stops: a tool that did not answer in time. */
      stopped: z.string().optional(),
    }),
    z.object({ type: z.literal('failed'), error: traceErrorSchema() }),
  ]),
);

export type ReplayClientMessage = z.infer<ReturnType<typeof replayClientMessageSchema>>;
export type ReplayServerMessage = z.infer<ReturnType<typeof replayServerMessageSchema>>;
export type ReplayConfirmRequest = z.infer<ReturnType<typeof replayCallSchema>>;
export type ReplayAskReason = z.infer<ReturnType<typeof replayAskReasonSchema>>;
