import { copyJsonValue } from '../copy-json-value';
import { readToolField, unreadableSchema } from '../read-tool-fields';

const limits = { depth: 40, values: 50_000 };

/** A tool as the bridge posts it: plain fields only (a page schema may hold functions or cycles). */
export type PostedTool = { ok: true; tool: Record<string, unknown> } | { ok: false; name: unknown; reason: string };

/**
 * Copies the fields the extension reads; the content script checks them all again. An output
 * schema it cannot read or copy is left out, and `outputSchemaProblem` says why: it only
 * describes results, so the tool is kept (see sanitizeTool). Never throws.
 */
export function copyToolForPosting(tool: unknown): PostedTool {
  const name = readToolField(tool, 'name');
  const copy: Record<string, unknown> = {};
  for (const field of ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const) {
    const value = readToolField(tool, field);
    if (value === undefined) continue;
    const copied = copyField(value);
    if (copied.ok) copy[field] = copied.value;
    else if (field === 'outputSchema') copy.outputSchemaProblem = `the output schema ${copied.problem}`;
    else return { ok: false, name, reason: `the ${field === 'inputSchema' ? 'input schema' : field} ${copied.problem}` };
  }
  return { ok: true, tool: copy };
}

/** A field as plain JSON, or what is wrong with it, in words that follow its name. */
function copyField(value: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (value === unreadableSchema) return { ok: false, problem: 'cannot be read' };
  const copied = copyJsonValue(value, limits);
  return copied.ok ? copied : { ok: false, problem: `cannot be used: ${copied.reason}` };
}
