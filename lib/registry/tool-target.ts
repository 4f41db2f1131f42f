import type { ToolDescriptor } from '@webmcp-agents/chat';

/** Where a call to a listed tool must run: the frame, and the document, whose tool was chosen. */
export interface ToolTarget {
  frameId?: number;
  /** Chrome 106+; absent where the browser does not name documents. */
  documentId?: string;
}

/**
 * The frame and document of a page's tool as the registry lists it, ready to spread into the
 * options of `executeTabTool`: a call must not run in another frame, or in the next document the
 * frame shows, where a same-named tool may be another tool altogether.
 */
export function toolTargetOf(tool: ToolDescriptor): ToolTarget {
  const { frameId, documentId } = tool as { frameId?: unknown; documentId?: unknown };
  return {
    ...(typeof frameId === 'number' ? { frameId } : {}),
    ...(typeof documentId === 'string' ? { documentId } : {}),
  };
}

/** The origin of the frame that offered a listed tool, where the registry says. */
export function toolOriginOf(tool: ToolDescriptor): string | undefined {
  const { origin } = tool as { origin?: unknown };
  return typeof origin === 'string' ? origin : undefined;
}
