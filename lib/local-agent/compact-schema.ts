import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { cutText } from './cut-text';

/** Longest description kept on any schema node. */
const descriptionLimit = 160;

/** Real schemas nest a handful of levels; past this a page is sending junk. */
const maxDepth = 32;

/**
 * Keeps only what a small model needs of a schema: `type`, `properties`, `required`, `enum`,
 * `minimum`, `maximum`, `items` and `description` (cut to 160 characters), recursively through
 * `properties` and `items`, in the order the page wrote them. Everything else is dropped, and so
 * is a kept keyword whose value has the wrong shape. Never throws.
 */
export function compactSchema(schema: JSONSchema): JSONSchema {
  return compactNode(schema, 0, new Set());
}

// A non-object, a schema inside itself (cycle) or one nested past maxDepth becomes `{}`, the
// schema that accepts anything, so junk costs the model no tokens and blocks no call.
function compactNode(node: unknown, depth: number, ancestors: Set<object>): JSONSchema {
  if (!isRecord(node) || depth > maxDepth || ancestors.has(node)) return {};
  ancestors.add(node);
  const entries: Array<[string, unknown]> = [];
  for (const key of Object.keys(node)) {
    const value = compactKeyword(key, node[key], depth, ancestors);
    if (value !== undefined) entries.push([key, value]);
  }
  ancestors.delete(node);
  // fromEntries defines own properties, so a property named `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}

/** The compacted value of one keyword, or undefined to drop it. */
function compactKeyword(
  key: string,
  value: unknown,
  depth: number,
  ancestors: Set<object>,
): unknown {
  switch (key) {
    case 'type':
      return compactType(value);
    case 'description':
      return typeof value === 'string' ? cutText(value, descriptionLimit) : undefined;
    case 'properties':
      return isRecord(value) ? compactProperties(value, depth, ancestors) : undefined;
    case 'required':
      return Array.isArray(value) ? value.filter((name) => typeof name === 'string') : undefined;
    case 'enum':
      return Array.isArray(value) ? [...value] : undefined;
    case 'minimum':
    case 'maximum':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'items':
      return compactItems(value, depth, ancestors);
    default:
      return undefined;
  }
}

/** A type name, or a list of them (non-strings dropped from the list). */
function compactType(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((name) => typeof name === 'string');
  return undefined;
}

function compactProperties(
  properties: Record<string, unknown>,
  depth: number,
  ancestors: Set<object>,
): JSONSchema {
  const entries = Object.keys(properties).map(
    (name): [string, JSONSchema] => [name, compactNode(properties[name], depth + 1, ancestors)],
  );
  return Object.fromEntries(entries);
}

// `items` is one schema, or (older drafts' tuple form) a list of them; anything else is dropped.
function compactItems(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (Array.isArray(value)) return value.map((item) => compactNode(item, depth + 1, ancestors));
  return isRecord(value) ? compactNode(value, depth + 1, ancestors) : undefined;
}
