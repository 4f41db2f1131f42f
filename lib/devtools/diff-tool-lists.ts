import type { PageTool } from '../registry/types';

/** One line of the inspector's change log: a tool's change, or the tab's page (`name`: its address) changing. */
export interface ToolChange {
  kind: 'added' | 'removed' | 'changed' | 'reloaded' | 'navigated';
  name: string;
  frameId: number;
  at: number;
  /** For a changed tool: which fields changed. */
  fields?: string[];
}

/**
 * Whether `after` is another document's list than `before`: the tab's page reloaded or went
 * elsewhere, where the browser names documents (a tool of the top frame in each).
 */
export function isAnotherDocument(before: readonly PageTool[], after: readonly PageTool[]): boolean {
  const documentOf = (tools: readonly PageTool[]) => tools.find((tool) => tool.frameId === 0)?.documentId;
  const [was, is] = [documentOf(before), documentOf(after)];
  return was !== undefined && is !== undefined && was !== is;
}

const comparedFields = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'source'] as const;

/** What changed between two readings of a tab's tools (a tool is its name in its frame). */
export function diffToolLists(before: readonly PageTool[], after: readonly PageTool[], at: number): ToolChange[] {
  const key = (tool: PageTool): string => `${tool.frameId}\u0000${tool.name}`;
  const previous = new Map(before.map((tool) => [key(tool), tool]));
  const next = new Map(after.map((tool) => [key(tool), tool]));
  const changes: ToolChange[] = [];
  for (const [toolKey, tool] of next) {
    const old = previous.get(toolKey);
    if (!old) {
      changes.push({ kind: 'added', name: tool.name, frameId: tool.frameId, at });
      continue;
    }
    const fields = comparedFields.filter((field) => JSON.stringify(old[field]) !== JSON.stringify(tool[field]));
    if (fields.length > 0) changes.push({ kind: 'changed', name: tool.name, frameId: tool.frameId, at, fields });
  }
  for (const [toolKey, tool] of previous) {
    if (!next.has(toolKey)) changes.push({ kind: 'removed', name: tool.name, frameId: tool.frameId, at });
  }
  return changes;
}
