import type { ToolDescriptor } from '@webmcp-agents/chat';

/**
 * The document of a page's tool as the registry lists it (Chrome 106+; undefined where the browser
 * does not name documents): a call to it must run in that document, not the next one in its frame.
 */
export function documentIdOf(tool: ToolDescriptor): string | undefined {
  const documentId = (tool as { documentId?: unknown }).documentId;
  return typeof documentId === 'string' ? documentId : undefined;
}
