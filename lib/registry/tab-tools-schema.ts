import { z } from 'zod/mini';
import { lazySchema } from '../messaging/lazy-schema';
import { reportedToolSchema } from '../webmcp/reported-tool';

/**
 * A page tool as the registry keeps it: the reported tool, the frame that offers it and, where the
 * browser names documents (Chrome 106+), the document in that frame that offered it. Built the
 * first time the inspector's port carries a tab's tools (see lazySchema).
 */
export const pageToolSchema = lazySchema(() => z.extend(reportedToolSchema(), { frameId: z.number(), documentId: z.optional(z.string()) }));

/** A tool the extension refused, with the reason and the frame it came from. */
export const droppedToolSchema = lazySchema(() => z.object({ name: z.string(), reason: z.string(), frameId: z.number() }));

/** Every tool of a tab, all frames together. */
export const tabToolsSchema = lazySchema(() =>
  z.object({
    tabId: z.number(),
    url: z.string(),
    origin: z.string(),
    /** The tab's title, as the browser told it with the latest report: the page's own words. */
    title: z.optional(z.string()),
    /** The top frame's document, where the browser names it: it stays while a single-page app moves the address. */
    documentId: z.optional(z.string()),
    tools: z.array(pageToolSchema()),
    dropped: z.array(droppedToolSchema()),
    updatedAt: z.number(),
  }),
);
