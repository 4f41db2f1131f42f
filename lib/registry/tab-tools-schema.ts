import { z } from 'zod/mini';
import { reportedToolSchema } from '../webmcp/reported-tool';

/** A page tool as the registry keeps it: the reported tool and the frame that offers it. */
export const pageToolSchema = z.extend(reportedToolSchema, { frameId: z.number() });

/** A tool the extension refused, with the reason and the frame it came from. */
export const droppedToolSchema = z.object({ name: z.string(), reason: z.string(), frameId: z.number() });

/** Every tool of a tab, all frames together. */
export const tabToolsSchema = z.object({
  tabId: z.number(),
  url: z.string(),
  origin: z.string(),
  tools: z.array(pageToolSchema),
  dropped: z.array(droppedToolSchema),
  updatedAt: z.number(),
});
