// Its own file so the inspector's model and its runs key tools alike without importing each other.
import type { PageTool } from '@/lib/registry/types';

/** The key of a tool in the inspector: its name in its frame. */
export const toolKey = (tool: Pick<PageTool, 'frameId' | 'name'>): string => `${tool.frameId}:${tool.name}`;
