import { readProperty } from '../adapters/tool-adapter';
import { copyJsonValue } from '../copy-json-value';

const limits = { depth: 40, values: 50_000 };

/** A tool as the bridge posts it: plain fields only (a page schema may hold functions or cycles). */
export type PostedTool = { ok: true; tool: Record<string, unknown> } | { ok: false; name: unknown; reason: string };

/**
 * Copies the fields the extension reads; the content script checks them all again. An output
 * schema it cannot copy is left out, and `outputSchemaProblem` says why: it only describes
 * results, so the tool is kept (see sanitizeTool). Never throws.
 */
export function copyToolForPosting(tool: unknown): PostedTool {
  const name = readProperty(tool, 'name');
  const copy: Record<string, unknown> = {};
  for (const field of ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']) {
    const value = readProperty(tool, field);
    if (value === undefined) continue;
    const copied = copyJsonValue(value, limits);
    if (copied.ok) copy[field] = copied.value;
    else if (field === 'outputSchema') copy.outputSchemaProblem = `the output schema cannot be used: ${copied.reason}`;
    else return { ok: false, name, reason: `the ${field === 'inputSchema' ? 'input schema' : field} cannot be used: ${copied.reason}` };
  }
  return { ok: true, tool: copy };
}
