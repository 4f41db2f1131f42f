import type { ToolDescriptor } from '@webmcp-agents/chat';

/** The frame of a page's tool as the registry lists it: a call to it must run in that frame. */
export function frameIdOf(tool: ToolDescriptor): number | undefined {
  const frameId = (tool as { frameId?: unknown }).frameId;
  return typeof frameId === 'number' ? frameId : undefined;
}
