import { z } from 'zod/mini';
import { tabToolsSchema } from '../registry/tab-tools-schema';
import { isPlainRecord } from './is-plain-record';
import { lazySchema } from './lazy-schema';
import type { PortProtocol } from './port-channel';
import { pageResultSchema } from './protocol';

const toolOutputSchema = lazySchema(() => z.object({ text: z.string(), isError: z.optional(z.boolean()), noAnswer: z.optional(z.boolean()) }));

/**
 * Devtools inspector → background. The schemas of this port are built when its first message
 * arrives (see lazySchema): the service worker loads this module at every start, and most starts
 * see no inspector.
 */
export const inspectorRequestSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('inspect'), tabId: z.number() }),
    z.object({
      type: z.literal('run-tool'),
      runId: z.string(),
      name: z.string(),
      /** Checked, not rebuilt, so that a property named "__proto__" reaches the page (see isPlainRecord). */
      args: z.custom<Record<string, unknown>>(isPlainRecord),
      timeoutMs: z.optional(z.number().check(z.positive())),
      /** The frame whose tool the person chose: it runs there, never in another frame with the name. */
      frameId: z.optional(z.number()),
      /** The document whose tool the person chose, where the browser names it: never the next one in the frame. */
      documentId: z.optional(z.string().check(z.maxLength(200))),
    }),
    z.object({ type: z.literal('cancel-run'), runId: z.string() }),
  ]),
);

/** Background → devtools inspector. */
export const inspectorEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('tab-tools'), tabId: z.number(), tabTools: z.nullable(tabToolsSchema()) }),
    z.object({
      type: z.literal('run-result'),
      runId: z.string(),
      output: toolOutputSchema(),
      /** An MCP-style result's `structuredContent`, for a tool with an output schema to check it against. */
      structuredContent: z.optional(z.unknown()),
      /** The result had one, left out on the way because the whole was too long to carry: it is not checked. */
      structuredContentDropped: z.optional(z.literal(true)),
      durationMs: z.number(),
    }),
    /**
     * After a listing of a tab the background holds nothing of: whether the extension's content
     * script runs in its page. It does not in a page open since before the extension was installed
     * or updated.
     */
    z.object({ type: z.literal('page-script'), tabId: z.number(), answers: z.boolean() }),
    /**
     * After a run's result that said its page went: what the page it loaded gives, for a form; for
     * a script's tool (`byScript`), only where the tab went, its address and title.
     */
    z.object({ type: z.literal('run-page-result'), runId: z.string(), pageResult: pageResultSchema(), byScript: z.optional(z.literal(true)) }),
  ]),
);

export type InspectorRequest = z.infer<ReturnType<typeof inspectorRequestSchema>>;
export type InspectorEvent = z.infer<ReturnType<typeof inspectorEventSchema>>;

/**
 * The port between the devtools inspector and the background. Its schemas live here, not in
 * `protocol`, so that the content script, which runs in every frame, never loads them.
 */
export const inspectorPort: PortProtocol<InspectorRequest, InspectorEvent> = {
  name: 'webmcp-inspector',
  toBackground: inspectorRequestSchema,
  toClient: inspectorEventSchema,
};
