import { reportedToolSchema, type DroppedToolReport, type ReportedTool } from '../webmcp/reported-tool';
import { displayName } from '../webmcp/sanitize-tool';

/**
 * The background's own check of each reported tool; a tool that fails is dropped, not the report.
 * With a `refusal`, every tool is dropped for that reason.
 */
export function recheckTools(tools: readonly unknown[], origin: string, refusal?: string): { tools: ReportedTool[]; dropped: DroppedToolReport[] } {
  const checked: ReportedTool[] = [];
  const dropped: DroppedToolReport[] = [];
  for (const tool of tools) {
    const parsed = refusal === undefined ? reportedToolSchema().safeParse(tool) : undefined;
    if (parsed?.success) checked.push({ ...parsed.data, origin });
    else dropped.push({ name: displayName((tool as { name?: unknown } | null)?.name), reason: refusal ?? 'it failed the background check' });
  }
  return { tools: checked, dropped };
}
