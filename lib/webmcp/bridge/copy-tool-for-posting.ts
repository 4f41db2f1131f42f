import { readProperty } from '../adapters/tool-adapter';
import { copyJsonValue } from '../copy-json-value';

const limits = { depth: 40, values: 50_000 };

/** A tool as the bridge posts it: plain fields only (a page schema may hold functions or cycles). */
export type PostedTool = { ok: true; tool: Record<string, unknown> } | { ok: false; name: unknown; reason: string };

/** Copies the fields the extension reads; the content script checks them all again. Never throws. */
export function copyToolForPosting(tool: unknown): PostedTool {
  const name = readProperty(tool, 'name');
  const copy: Record<string, unknown> = {};
  for (const field of ['name', 'title', 'description', 'inputSchema', 'annotations']) {
    const value = readProperty(tool, field);
    if (value === undefined) continue;
    const copied = copyJsonValue(value, limits);
    if (!copied.ok) return { ok: false, name, reason: `the ${field === 'inputSchema' ? 'input schema' : field} cannot be used: ${copied.reason}` };
    copy[field] = copied.value;
  }
  return { ok: true, tool: copy };
}
