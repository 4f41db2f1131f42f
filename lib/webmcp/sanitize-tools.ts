import type { CheckedToolCache } from './checked-tool-cache';
import { readToolFields } from './read-tool-fields';
import type { DroppedToolReport, ReportedTool, ToolSource } from './reported-tool';
import { displayName, sanitizeToolFields } from './sanitize-tool';
import { toolLimits } from './tool-limits';

/** A tool as one source of a frame offers it, before any check. */
export interface OfferedTool {
  tool: unknown;
  source: ToolSource;
  /** What the extension saw in a tool form's fields, for its author (see `formFieldNotes`). */
  formNotes?: readonly string[];
  /** Why the page-world bridge could not copy the tool's output schema. */
  outputSchemaProblem?: string;
}

export interface SanitizedTools {
  tools: ReportedTool[];
  dropped: DroppedToolReport[];
}

/**
 * Checks every tool a frame offers: each is copied and capped (`sanitizeTool`), a name already
 * taken is refused (the first source wins), and the frame's list is capped in count and size.
 * With `cache`, a tool checked before is not checked again. Never throws.
 */
export function sanitizeTools(offered: readonly OfferedTool[], origin: string, cache?: CheckedToolCache, lang?: string): SanitizedTools {
  const tools: ReportedTool[] = [];
  const dropped: DroppedToolReport[] = [];
  const taken = new Set<string>();
  let characters = 0;
  // Past ten times the cap nothing more could be taken: the rest is not even looked at.
  const considered = offered.slice(0, toolLimits.toolsPerFrame * 10);
  for (const { tool, source, formNotes, outputSchemaProblem } of considered) {
    const raw = readToolFields(tool);
    const context = { origin, source, ...(formNotes ? { formNotes } : {}), ...(outputSchemaProblem !== undefined ? { outputSchemaProblem } : {}), ...(lang ? { lang } : {}) };
    const result = cache ? cache.check(raw, context, () => sanitizeToolFields(raw, context)) : sanitizeToolFields(raw, context);
    if (!result.ok) {
      dropped.push({ name: result.name, reason: result.reason });
      continue;
    }
    const name = result.tool.name;
    if (taken.has(name)) {
      dropped.push({ name: displayName(name), reason: 'another tool of this page already has this name' });
      continue;
    }
    if (tools.length >= toolLimits.toolsPerFrame) {
      dropped.push({ name: displayName(name), reason: `the page offers more than ${toolLimits.toolsPerFrame} tools` });
      continue;
    }
    const size = sizeOf(result.tool);
    if (characters + size > toolLimits.reportCharacters) {
      const limit = toolLimits.reportCharacters.toLocaleString('en-US');
      dropped.push({ name: displayName(name), reason: `the page's tools together pass the limit of ${limit} characters` });
      continue;
    }
    characters += size;
    taken.add(name);
    tools.push(result.tool);
  }
  const unread = offered.length - considered.length;
  const capped = capDropped(dropped);
  if (unread > 0) capped.push({ name: '(more)', reason: `${unread} more tools were not read` });
  return { tools, dropped: capped };
}

// A tool checked before (see CheckedToolCache) is the same object: its size is not measured again.
const sizes = new WeakMap<ReportedTool, number>();

function sizeOf(tool: ReportedTool): number {
  let size = sizes.get(tool);
  if (size === undefined) sizes.set(tool, (size = JSON.stringify(tool).length));
  return size;
}

/** A page can offer thousands of bad tools; the inspector needs only the first reasons. */
function capDropped(dropped: DroppedToolReport[]): DroppedToolReport[] {
  const limit = toolLimits.toolsPerFrame;
  if (dropped.length <= limit) return dropped;
  const rest = dropped.length - limit;
  return [...dropped.slice(0, limit), { name: '(more)', reason: `${rest} more tools were dropped` }];
}
