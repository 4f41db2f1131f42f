import { z } from 'zod/mini';
import { pageResultCharacters, pageTitleCharacters } from '../webmcp/read-page-result';
import { droppedToolSchema } from '../webmcp/reported-tool';
import { toolLimits } from '../webmcp/tool-limits';
import { errorPayloadSchema } from './error-payload';
import { isPlainRecord } from './is-plain-record';
import { lazySchema } from './lazy-schema';

const noReply = lazySchema(() => z.null());
const emptyMessage = lazySchema(() => z.object({}));

/** The page a form loaded, and what it gives as the form's result (see `readPageResult`). */
export const pageResultSchema = lazySchema(() =>
  z.object({
    url: z.string().check(z.maxLength(2_048)),
    title: z.optional(z.string().check(z.maxLength(pageTitleCharacters))),
    data: z.optional(z.string().check(z.maxLength(pageResultCharacters))),
    status: z.optional(z.int().check(z.minimum(400), z.maximum(599))),
  }),
);

/**
 * A frame's tools, sent by the content script whenever they change. Each tool is checked again
 * with `reportedToolSchema` by the registry, one by one, so one bad tool cannot void the report.
 */
export const toolsReportSchema = lazySchema(() =>
  z.object({
    url: z.string().check(z.maxLength(8_192)),
    /** The origin of the tab's top frame as this frame sees it (`location.ancestorOrigins`). */
    topOrigin: z.optional(z.string().check(z.maxLength(2_048))),
    tools: z.array(z.unknown()).check(z.maxLength(toolLimits.toolsPerFrame)),
    dropped: z.array(droppedToolSchema()).check(z.maxLength(toolLimits.toolsPerFrame + 110)),
  }),
);

export const toolCallSchema = lazySchema(() =>
  z.object({
    callId: z.string().check(z.maxLength(100)),
    name: z.string().check(z.maxLength(200)),
    /** Checked, not rebuilt, so that a property named "__proto__" reaches the page (see isPlainRecord). */
    args: z.custom<Record<string, unknown>>(isPlainRecord),
    timeoutMs: z.number().check(z.positive()),
  }),
);

/** What a tool call gave: the page's JSON string, `null` when its document went away before it answered, or an error. */
export const toolCallReplySchema = lazySchema(() =>
  z.discriminatedUnion('status', [
    // `fullLength`: the result's length before the content script cut it, where it did.
    // `structuredContentDropped`: an MCP-style result was too long, and its structuredContent left out to carry it.
    z.object({
      status: z.literal('ok'),
      result: z.nullable(z.string()),
      fullLength: z.optional(z.int().check(z.minimum(0))),
      structuredContentDropped: z.optional(z.literal(true)),
    }),
    z.object({ status: z.literal('error'), error: errorPayloadSchema() }),
  ]),
);

/**
 * Every one-shot message between the content scripts and the background: each names its payload
 * and its reply. Add new messages here, never as raw `sendMessage` elsewhere. Each schema is built
 * the first time its message travels (see lazySchema), since the content script runs in every
 * frame. Ports have their own maps, beside the feature they serve and out of the content script:
 * the inspector's (`inspector-protocol.ts`), the side panel's (`agent-port-protocol.ts`), the
 * trace viewer's (`trace-protocol.ts`) and the options page's model load, trial and
 * following of the engine's status (`model-load-port.ts`).
 */
export const protocol = {
  /** Content script → background. */
  toBackground: {
    'tools-report': { message: toolsReportSchema, reply: noReply },
    /** The frame's document is going away (navigation, close, back/forward cache). */
    'frame-gone': { message: emptyMessage, reply: noReply },
  },
  /** Background → content script of one tab (one frame, or all). */
  toContent: {
    /**
     * Send your tools again (the service worker woke up and re-reads); with `lookAgain`, look for
     * tools no event announced first (a panel opened on the tab).
     */
    'tools-request': { message: lazySchema(() => z.object({ lookAgain: z.optional(z.boolean()) })), reply: noReply },
    'tool-execute': { message: toolCallSchema, reply: toolCallReplySchema },
    'tool-abort': { message: lazySchema(() => z.object({ callId: z.string() })), reply: noReply },
    /** The page a form loaded, and the result it gives (its JSON-LD), once the page is parsed; null from a frame. */
    'page-result-request': {
      message: emptyMessage,
      reply: lazySchema(() => z.nullable(pageResultSchema())),
    },
  },
} as const;

export type ToBackground = typeof protocol.toBackground;
export type ToContent = typeof protocol.toContent;
export type ToolsReport = z.infer<ReturnType<typeof toolsReportSchema>>;
export type ToolCall = z.infer<ReturnType<typeof toolCallSchema>>;
export type ToolCallReply = z.infer<ReturnType<typeof toolCallReplySchema>>;
