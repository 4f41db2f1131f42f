import type { z } from 'zod/mini';
import type { droppedToolSchema, pageToolSchema, tabToolsSchema } from './tab-tools-schema';

/** A page's tool as the agent sees it: the descriptor, its origin, frame and source. */
export type PageTool = z.infer<ReturnType<typeof pageToolSchema>>;
/** A tool the extension refused, and why (shown in the inspector). */
export type DroppedTool = z.infer<ReturnType<typeof droppedToolSchema>>;
/** Every tool of a tab, all frames together; the top frame's first. */
export type TabTools = z.infer<ReturnType<typeof tabToolsSchema>>;
