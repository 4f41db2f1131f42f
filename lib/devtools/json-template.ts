import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { resolvePointer } from '../registry/resolve-pointer';

/**
 * A starting value for a JSON editor, shaped like the schema: objects with every property,
 * arrays with one item, the first enum value, the minimum of a number, "" for text. Of `anyOf`
 * and `oneOf` it follows the first branch that is not null; `allOf` branches are merged; a
 * reference (`$ref`) is read as what it points to in `root` (the schema itself unless given).
 */
export function jsonTemplate(schema: unknown, root: unknown = schema): unknown {
  return templateOf(schema, isRecord(root) ? root : {}, 0);
}

function templateOf(schema: unknown, root: JSONSchema, depth: number): unknown {
  if (!isRecord(schema) || depth > 6) return null;
  const node = followBranches(schema, root);
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('const' in node) return node.const;
  if ('default' in node) return node.default;
  switch (firstType(node)) {
    case 'object':
      return objectTemplate(node, root, depth);
    case 'array':
      return node.items === undefined ? [] : [templateOf(node.items, root, depth + 1)];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof node.minimum === 'number' ? node.minimum : 0;
    case 'boolean':
      return false;
    default:
      return isRecord(node.properties) ? objectTemplate(node, root, depth) : null;
  }
}

function objectTemplate(node: JSONSchema, root: JSONSchema, depth: number): Record<string, unknown> {
  const template: Record<string, unknown> = {};
  if (!isRecord(node.properties)) return template;
  for (const [key, property] of Object.entries(node.properties)) {
    Object.defineProperty(template, key, { value: templateOf(property, root, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return template;
}

/**
 * The schema a form fills in for a node with alternatives: the first `anyOf` or `oneOf` branch
 * that is not just null (how zod writes `.nullable()`), and every `allOf` branch, each merged
 * into the rest of the node. With `root`, references are read as what they point to there.
 */
export function followBranches(node: JSONSchema, root?: JSONSchema): JSONSchema {
  const { anyOf, oneOf, allOf, ...rest } = root ? followReference(node, root) : node;
  let merged: JSONSchema = rest;
  if (Array.isArray(allOf)) for (const branch of allOf) if (isRecord(branch)) merged = mergeSchemas(merged, followBranches(branch, root));
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : [];
  const chosen = branches.find((branch) => isRecord(branch) && !isNullSchema(root ? followReference(branch, root) : branch));
  return isRecord(chosen) ? mergeSchemas(merged, followBranches(chosen, root)) : merged;
}

/** A node that points elsewhere (`$ref`) as what it points to, with its own keywords beside; a chain is followed a few links. */
function followReference(node: JSONSchema, root: JSONSchema): JSONSchema {
  let current = node;
  for (let links = 0; links < 8 && typeof current.$ref === 'string'; links += 1) {
    const { $ref, ...rest } = current;
    const target = resolvePointer(root, $ref);
    current = isRecord(target) ? { ...target, ...rest } : rest;
  }
  return current;
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
