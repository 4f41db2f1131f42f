import { isRecord, type JSONSchema } from '@webmcp-agents/chat';

/**
 * A starting value for a JSON editor, shaped like the schema: objects with every property,
 * arrays with one item, the first enum value, the minimum of a number, "" for text. Of `anyOf`
 * and `oneOf` it follows the first branch that is not null; `allOf` branches are merged.
 */
export function jsonTemplate(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 6) return null;
  const node = followBranches(schema as JSONSchema);
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('const' in node) return node.const;
  if ('default' in node) return node.default;
  switch (firstType(node)) {
    case 'object':
      return objectTemplate(node, depth);
    case 'array':
      return node.items === undefined ? [] : [jsonTemplate(node.items, depth + 1)];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof node.minimum === 'number' ? node.minimum : 0;
    case 'boolean':
      return false;
    default:
      return isRecord(node.properties) ? objectTemplate(node, depth) : null;
  }
}

function objectTemplate(node: JSONSchema, depth: number): Record<string, unknown> {
  const template: Record<string, unknown> = {};
  if (!isRecord(node.properties)) return template;
  for (const [key, property] of Object.entries(node.properties)) {
    Object.defineProperty(template, key, { value: jsonTemplate(property, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return template;
}

/**
 * The schema a form fills in for a node with alternatives: the first `anyOf` or `oneOf` branch
 * that is not just null (how zod writes `.nullable()`), and every `allOf` branch, each merged
 * into the rest of the node.
 */
export function followBranches(node: JSONSchema): JSONSchema {
  const { anyOf, oneOf, allOf, ...rest } = node;
  let merged: JSONSchema = rest;
  if (Array.isArray(allOf)) for (const branch of allOf) if (isRecord(branch)) merged = mergeSchemas(merged, followBranches(branch));
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : [];
  const chosen = branches.find((branch) => isRecord(branch) && !isNullSchema(branch));
  return isRecord(chosen) ? mergeSchemas(merged, followBranches(chosen)) : merged;
}

/** A schema that allows only null: `{type: "null"}`. */
export function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null'));
}

function mergeSchemas(base: JSONSchema, branch: JSONSchema): JSONSchema {
  const merged = { ...base, ...branch };
  if (isRecord(base.properties) && isRecord(branch.properties)) merged.properties = { ...base.properties, ...branch.properties };
  return merged;
}

/** A schema's type; of a list like `["string", "null"]`, the first that is not "null". */
export function firstType(node: JSONSchema): string | undefined {
  if (typeof node.type === 'string') return node.type;
  if (Array.isArray(node.type)) return node.type.find((type): type is string => typeof type === 'string' && type !== 'null');
  return undefined;
}
