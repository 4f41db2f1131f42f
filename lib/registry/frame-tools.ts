import { z } from 'zod/mini';
import { lazySchema } from '../messaging/lazy-schema';
import { droppedToolSchema, reportedToolSchema } from '../webmcp/reported-tool';

/**
 * What the registry keeps of one frame: its latest report. Built the first time a stored tab's
 * tools are read back (see lazySchema): a start with no tools stored builds none of it.
 */
const frameToolsSchema = lazySchema(() =>
  z.object({
    url: z.string(),
    origin: z.string(),
    /** The tab's top-frame origin as the frame reported it; the tab's site when the top frame has no tools. */
    topOrigin: z.optional(z.string()),
    /** The document that reported, as the browser names it (Chrome 106+); a frame keeps its id across documents. */
    documentId: z.optional(z.string()),
    tools: z.array(reportedToolSchema()),
    dropped: z.array(droppedToolSchema()),
    /** Some of its tools were left out for want of room in the tab (see `fitFrameToTab`). */
    cut: z.optional(z.literal(true)),
    updatedAt: z.number(),
  }),
);
export type FrameTools = z.infer<ReturnType<typeof frameToolsSchema>>;

/** What the registry keeps of one tab: its frames by id, and the tab's address and title when known. */
export const tabEntrySchema = lazySchema(() =>
  z.object({
    tabUrl: z.optional(z.string()),
    tabTitle: z.optional(z.string()),
    frames: z.record(z.string(), frameToolsSchema()),
  }),
);
export type TabEntry = z.infer<ReturnType<typeof tabEntrySchema>>;
