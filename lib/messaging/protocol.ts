import { z } from 'zod/mini';
import { tabToolsSchema } from '../registry/tab-tools-schema';
import { pageResultCharacters } from '../webmcp/read-page-result';
import { droppedToolSchema } from '../webmcp/reported-tool';
import { toolLimits } from '../webmcp/tool-limits';
import { errorPayloadSchema } from './error-payload';

const noReply = z.null();

/** What a page a form loaded gives as the form's result (see `readPageResult`). */
const pageResultSchema = z.object({ url: z.string().check(z.maxLength(2_048)), data: z.string().check(z.maxLength(pageResultCharacters)) });

/**
 * A frame's tools, sent by the content script whenever they change. Each tool is checked again
 * with `reportedToolSchema` by the registry, one by one, so one bad tool cannot void the report.
 */
export const toolsReportSchema = z.object({
  url: z.string().check(z.maxLength(8_192)),
  /** The origin of the tab's top frame as this frame sees it (`location.ancestorOrigins`). */
  topOrigin: z.optional(z.string().check(z.maxLength(2_048))),
  tools: z.array(z.unknown()).check(z.maxLength(toolLimits.toolsPerFrame)),
  dropped: z.array(droppedToolSchema).check(z.maxLength(toolLimits.toolsPerFrame + 110)),
});

export const toolCallSchema = z.object({
  callId: z.string().check(z.maxLength(100)),
  name: z.string().check(z.maxLength(200)),
  args: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().check(z.positive()),
});

/** What a tool call gave: the page's JSON string, `null` when its document went away before it answered, or an error. */
export const toolCallReplySchema = z.discriminatedUnion('status', [
  // `fullLength`: the result's length before the content script cut it, where it did.
  z.object({ status: z.literal('ok'), result: z.nullable(z.string()), fullLength: z.optional(z.int().check(z.minimum(0))) }),
  z.object({ status: z.literal('error'), error: errorPayloadSchema }),
]);

export const toolOutputSchema = z.object({ text: z.string(), isError: z.optional(z.boolean()) });

/** Devtools inspector → background. */
export const inspectorRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inspect'), tabId: z.number() }),
  z.object({
    type: z.literal('run-tool'),
    runId: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
    timeoutMs: z.optional(z.number().check(z.positive())),
    /** The frame whose tool the person chose: it runs there, never in another frame with the name. */
    frameId: z.optional(z.number()),
    /** The document whose tool the person chose, where the browser names it: never the next one in the frame. */
    documentId: z.optional(z.string().check(z.maxLength(200))),
  }),
  z.object({ type: z.literal('cancel-run'), runId: z.string() }),
]);

/** Background → devtools inspector. */
export const inspectorEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tab-tools'), tabId: z.number(), tabTools: z.nullable(tabToolsSchema) }),
  z.object({
    type: z.literal('run-result'),
    runId: z.string(),
    output: toolOutputSchema,
    /** An MCP-style result's `structuredContent`, for a tool with an output schema to check it against. */
    structuredContent: z.optional(z.unknown()),
    durationMs: z.number(),
  }),
  /** After a run's result that said the form navigated: what the page it loaded gives. */
  z.object({ type: z.literal('run-page-result'), runId: z.string(), pageResult: pageResultSchema }),
]);

/**
 * Every message between the extension's contexts. One-shot messages name their payload and reply;
 * ports name their two directions. Add new messages here, never as raw `sendMessage` elsewhere.
 */
export const protocol = {
  /** Content script → background. */
  toBackground: {
    'tools-report': { message: toolsReportSchema, reply: noReply },
    /** The frame's document is going away (navigation, close, back/forward cache). */
    'frame-gone': { message: z.object({}), reply: noReply },
  },
  /** Background → content script of one tab (one frame, or all). */
  toContent: {
    /**
     * Send your tools again (the service worker woke up and re-reads); with `lookAgain`, look for
     * tools no event announced first (a panel opened on the tab).
     */
    'tools-request': { message: z.object({ lookAgain: z.optional(z.boolean()) }), reply: noReply },
    'tool-execute': { message: toolCallSchema, reply: toolCallReplySchema },
    'tool-abort': { message: z.object({ callId: z.string() }), reply: noReply },
    /** The result a page loaded by a form gives (its JSON-LD), once the page is parsed. */
    'page-result-request': {
      message: z.object({}),
      reply: z.nullable(pageResultSchema),
    },
  },
  ports: {
    inspector: { name: 'webmcp-inspector', toBackground: inspectorRequestSchema, toClient: inspectorEventSchema },
  },
} as const;

export type ToBackground = typeof protocol.toBackground;
export type ToContent = typeof protocol.toContent;
export type Ports = typeof protocol.ports;
export type ToolsReport = z.infer<typeof toolsReportSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type ToolCallReply = z.infer<typeof toolCallReplySchema>;
export type InspectorRequest = z.infer<typeof inspectorRequestSchema>;
export type InspectorEvent = z.infer<typeof inspectorEventSchema>;
