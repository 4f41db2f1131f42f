import { isRecord } from '@webmcp-agents/chat';

/**
 * A page's schema in the words the prompt keeps. The compact schema a small model reads keeps only
 * `type`, `properties`, `required`, `enum`, `minimum`, `maximum`, `items` and `description` (see
 * `compactSchema`), but schemas that zod, TypeScript or an MCP server generate say much of what
 * matters otherwise: a model shown `"shipping": {}` for a `$ref` cannot fill in an address. So:
 *
 * - a local `$ref` (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) is replaced by what it
 *   points at (a reference to itself, or past the size budget, keeps only the target's `type`);
 * - `allOf` is merged into one schema (properties and `required` of every part);
 * - `anyOf` / `oneOf` of values (`const`) becomes an `enum`; of one type and `null` (a nullable
 *   field), that type or null; of plain types, a list of types; of objects, one object with every
 *   branch's properties (an `enum` of each branch's value where branches tell themselves apart by
 *   one), and required only what every branch requires;
 * - `const` becomes a one-value `enum`, OpenAPI's `nullable: true` adds `"null"` to the type;
 * - `format` and `default` are said in the description: "(format: date)", "(default: 3)".
 *
 * The result never refuses what the page's schema accepts (unions only widen), so checking a call
 * against it stays a first check, the page's own the last. Choices with titles (`anyOf` of
 * `{const, title}`) keep their list for `foldChoiceTitles`. A schema with none of these comes back
 * as the same object.
 */
export function plainSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const context: Context = { root: schema, inlining: new Set(), budget: nodeBudget };
  const plain = plainNode(schema, context, 0);
  if (!isRecord(plain) || (!('$defs' in plain) && !('definitions' in plain))) return plain;
  const { $defs: _defs, definitions: _definitions, ...rest } = plain;
  return rest;
}

interface Context {
  root: Record<string, unknown>;
  /** The references being replaced, outermost first: one met again refers to itself. */
  inlining: Set<string>;
  /** Schema nodes still to read: replacing references can multiply a schema, so past this they stay short. */
  budget: number;
}

const nodeBudget = 5_000;
const depthLimit = 24;

function plainNode(node: unknown, context: Context, depth: number): unknown {
  if (!isRecord(node) || depth > depthLimit) return node;
  context.budget -= 1;
  let schema: Record<string, unknown> = node;
  if (typeof schema.$ref === 'string') schema = inlineReference(schema, context, depth);
  if (Array.isArray(schema.allOf)) schema = mergeAllOf(schema, context, depth);
  const union = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (union) schema = mergeUnion(schema, union, context, depth);
  schema = plainKeywords(schema);

  const properties = schema.properties;
  if (isRecord(properties)) {
    let changed = false;
    const plain = Object.fromEntries(
      Object.entries(properties).map(([key, property]) => {
        const next = plainNode(property, context, depth + 1);
        changed ||= next !== property;
        return [key, next];
      }),
    );
    if (changed) schema = { ...schema, properties: plain };
  }
  const items = plainNode(schema.items, context, depth + 1);
  if (items !== schema.items) schema = { ...schema, items };
  return schema;
}

function inlineReference(schema: Record<string, unknown>, context: Context, depth: number): Record<string, unknown> {
  const { $ref: reference, ...beside } = schema;
  const target = resolvePointer(context.root, reference as string);
  if (!isRecord(target)) return beside;
  const key = reference as string;
  if (context.inlining.has(key) || context.budget <= 0) {
    // A tree that holds itself (a category and its subcategories): the model reads the kind of value.
    return 'type' in target && !('type' in beside) ? { type: target.type, ...beside } : beside;
  }
  context.inlining.add(key);
  try {
    // What stands beside the reference (a description of this use) says more than the target's.
    const merged = plainNode({ ...target, ...beside }, context, depth + 1);
    return isRecord(merged) ? merged : beside;
  } finally {
    context.inlining.delete(key);
  }
}

/** `#`, `#/$defs/address`, `#/properties/a/items`: a JSON pointer into the schema itself. */
function resolvePointer(root: Record<string, unknown>, reference: string): unknown {
  if (reference === '#') return root;
  if (!reference.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of reference.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node;
}

function mergeAllOf(schema: Record<string, unknown>, context: Context, depth: number): Record<string, unknown> {
  const { allOf, ...rest } = schema;
  const parts = (allOf as unknown[]).map((part) => plainNode(part, context, depth + 1)).filter(isRecord);
  let merged: Record<string, unknown> = rest;
  for (const part of parts) {
    const properties = isRecord(merged.properties) || isRecord(part.properties) ? addProperties(asRecord(merged.properties), asRecord(part.properties)) : undefined;
    const required = unique([...asArray(merged.required), ...asArray(part.required)]);
    merged = { ...part, ...merged, ...(properties ? { properties } : {}), ...(required.length > 0 ? { required } : {}) };
  }
  return merged;
}

/** The properties in the order given; where two parts describe one, the first part's schema. */
function addProperties(first: Record<string, unknown>, second: Record<string, unknown>): Record<string, unknown> {
  // Built from entries: a property named "__proto__" stays a property.
  return Object.fromEntries([...Object.entries(first), ...Object.entries(second).filter(([name]) => !Object.hasOwn(first, name))]);
}

function mergeUnion(schema: Record<string, unknown>, key: 'anyOf' | 'oneOf', context: Context, depth: number): Record<string, unknown> {
  const list = schema[key] as unknown[];
  const branches = list.map((branch) => plainNode(branch, context, depth + 1));
  if (branches.length === 0 || !branches.every(isRecord)) return schema;
  const { [key]: _list, ...rest } = schema;

  // Values: an enum. Titles that say more than the values stay for foldChoiceTitles to read.
  if (branches.every((branch) => 'const' in branch)) {
    const values = branches.map((branch) => branch.const);
    const titled = branches.some((branch) => typeof branch.title === 'string' && branch.title.trim() !== '' && branch.title.trim() !== String(branch.const));
    return { ...(titled ? schema : rest), ...(Array.isArray(schema.enum) ? {} : { enum: values }) };
  }

  const isNull = (branch: Record<string, unknown>) => branch.type === 'null' || (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null);
  const nullable = branches.some(isNull);
  const others = branches.filter((branch) => !isNull(branch));
  if (others.length === 1) {
    const [only] = others as [Record<string, unknown>];
    return withNull({ ...only, ...rest }, nullable);
  }
  if (others.every(isPlainType)) {
    const types = unique(others.flatMap((branch) => asArray(branch.type)));
    return withNull({ ...rest, type: types }, nullable);
  }
  if (others.every(isObjectSchema)) return withNull({ ...rest, ...mergeObjects(others) }, nullable);
  return schema;
}

/** `{type: "string"}`, `{type: "integer", minimum: 0}`: a type and nothing that needs it kept apart. */
function isPlainType(branch: Record<string, unknown>): boolean {
  return (typeof branch.type === 'string' || Array.isArray(branch.type)) && branch.type !== 'object' && branch.type !== 'array' && !('enum' in branch) && !('properties' in branch);
}

function isObjectSchema(branch: Record<string, unknown>): boolean {
  return branch.type === 'object' || (branch.type === undefined && isRecord(branch.properties));
}

/** One object with every branch's properties; a property in several branches takes all their values. */
function mergeObjects(branches: Record<string, unknown>[]): Record<string, unknown> {
  // A map, not an object: a property named "__proto__" stays a property.
  const properties = new Map<string, Record<string, unknown>>();
  for (const branch of branches) {
    for (const [name, property] of Object.entries(asRecord(branch.properties))) {
      if (!isRecord(property)) continue;
      const known = properties.get(name);
      if (known === undefined) properties.set(name, property);
      else if (Array.isArray(known.enum) && Array.isArray(property.enum)) properties.set(name, { ...known, enum: unique([...known.enum, ...property.enum]) });
      else if (Array.isArray(known.enum) || Array.isArray(property.enum)) {
        // One branch takes any value here: so does the merged schema.
        const { enum: _enum, ...open } = known;
        properties.set(name, open);
      }
    }
  }
  const requiredByAll = asArray(branches[0]!.required).filter((name) => branches.every((branch) => asArray(branch.required).includes(name)));
  return { type: 'object', properties: Object.fromEntries(properties), ...(requiredByAll.length > 0 ? { required: requiredByAll } : {}) };
}

function withNull(schema: Record<string, unknown>, nullable: boolean): Record<string, unknown> {
  if (!nullable || schema.type === undefined) return schema;
  const types = unique([...asArray(schema.type), 'null']);
  const choices = Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {};
  return { ...schema, type: types, ...choices };
}

/** `const`, `nullable`, `format` and `default`, said in what the prompt keeps. */
function plainKeywords(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('const' in schema) && schema.nullable !== true && schema.format === undefined && schema.default === undefined) return schema;
  let plain: Record<string, unknown> = schema;
  if ('const' in plain && !Array.isArray(plain.enum)) plain = { ...plain, enum: [plain.const] };
  if (plain.nullable === true) plain = withNull(plain, true);
  const notes = [
    typeof plain.format === 'string' && plain.format !== '' ? `format: ${plain.format}` : undefined,
    plain.default !== undefined ? `default: ${sayDefault(plain.default)}` : undefined,
  ].filter((note): note is string => note !== undefined);
  const own = typeof plain.description === 'string' ? plain.description.trim() : '';
  if (notes.length > 0 && !notes.every((note) => own.includes(note))) {
    plain = { ...plain, description: `${own === '' ? '' : `${own} `}(${notes.join(', ')})` };
  }
  return plain;
}

function sayDefault(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
