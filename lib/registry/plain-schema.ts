import { isRecord } from '@webmcp-agents/chat';
import { resolvePointer } from './resolve-pointer';
import { asArray, asRecord, isKnownType, omitType, oneOrList, requiredList, unique, uniqueJson, type Schema } from './schema-values';

/**
 * A page's schema in the words the prompt keeps. The compact schema a small model reads keeps only
 * `type`, `properties`, `required`, `enum`, `minimum`, `maximum`, `items` and `description` (see
 * `compactSchema`), but schemas that zod, TypeScript or an MCP server generate say much of what
 * matters otherwise: a model shown `"shipping": {}` for a `$ref` cannot fill in an address. So:
 *
 * - a local `$ref` (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) is replaced by what it
 *   points at, with what stands beside it (a reference to itself, or past a size budget, keeps
 *   only the target's `type`);
 * - `allOf` is merged into one schema (properties and `required` of every part);
 * - `anyOf` / `oneOf` of values (`const`) becomes an `enum`; of one schema and `null` (a nullable
 *   field), that schema or null; of plain types, a list of types; of objects, one object with
 *   every branch's properties, each taking what any branch allows there, and required only what
 *   every branch requires;
 * - `const` becomes a one-value `enum`, OpenAPI's `nullable: true` adds null;
 * - `format` and `default` are said at the start of the description: "(format: date)".
 *
 * A call the page's schema accepts is never refused by the result (merges only widen: where
 * branches disagree on a property, it takes either), so checking a call against it stays a first
 * check, the page's own the last. Choices with titles (`anyOf` of `{const, title}`) keep their
 * list for `foldChoiceTitles`. A schema with none of these comes back as the same object.
 */
export function plainSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  // References may write out up to twice the schema again (a few thousand characters at least).
  const budget = Math.min(inlineBudgetLimit, Math.max(inlineBudgetFloor, 2 * JSON.stringify(schema).length));
  const context: Context = { root: schema, budget, sizes: new Map() };
  const plain = plainNode(schema, context, 0, new Set());
  if (!isRecord(plain) || (!('$defs' in plain) && !('definitions' in plain))) return plain;
  const { $defs: _defs, definitions: _definitions, ...rest } = plain;
  return rest;
}

interface Context {
  root: Schema;
  /** Characters of schema still to be copied in for references: a few of them can multiply a schema. */
  budget: number;
  /** Each reference's size, measured once. */
  sizes: Map<string, number>;
}

const inlineBudgetFloor = 8_000;
const inlineBudgetLimit = 100_000;
const depthLimit = 24;

/** `inlining`: the references being written out on the way here; one met again refers to itself. */
function plainNode(node: unknown, context: Context, depth: number, inlining: ReadonlySet<string>): unknown {
  if (!isRecord(node) || depth > depthLimit) return node;
  const flat = flatten(node, context, inlining);
  let schema = flat.schema;
  const below = flat.inlined.length > 0 ? new Set([...inlining, ...flat.inlined]) : inlining;
  const union = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (union) schema = mergeUnion(schema, union, context, depth, below);
  schema = plainKeywords(schema);

  if (isRecord(schema.properties)) {
    let changed = false;
    const properties = Object.entries(schema.properties).map(([key, property]) => {
      const next = plainNode(property, context, depth + 1, below);
      changed ||= next !== property;
      return [key, next] as const;
    });
    // Built from entries: a property named "__proto__" stays a property.
    if (changed) schema = { ...schema, properties: Object.fromEntries(properties) };
  }
  const items = plainNode(schema.items, context, depth + 1, below);
  if (items !== schema.items) schema = { ...schema, items };
  return schema;
}

/** The node with its own `$ref` written out and its `allOf` merged (their parts' too), and the references it wrote out. */
function flatten(node: Schema, context: Context, inlining: ReadonlySet<string>): { schema: Schema; inlined: string[] } {
  const inlined: string[] = [];
  const visit = (schema: Schema): Schema => {
    let flat = schema;
    if (typeof flat.$ref === 'string') {
      const { $ref: reference, ...beside } = flat;
      const key = reference as string;
      const target = resolvePointer(context.root, key);
      if (!isRecord(target)) flat = beside;
      else if (inlining.has(key) || inlined.includes(key) || !spend(context, key, target)) {
        // A tree that holds itself (a category and its subcategories), or past the budget: the model
        // reads the kind of value (null included, where OpenAPI's `nullable` says so).
        flat = 'type' in target && !('type' in beside) ? { type: target.type, ...(target.nullable === true ? { nullable: true } : {}), ...beside } : beside;
      } else {
        inlined.push(key);
        // What stands beside the reference (a description of this use) says more than the target's.
        flat = both(beside, visit(target));
      }
    }
    if (Array.isArray(flat.allOf)) {
      const { allOf, ...rest } = flat;
      flat = both(rest, ...allOf.filter(isRecord).map(visit));
    }
    return flat;
  };
  return { schema: visit(node), inlined };
}

/** Whether the budget allows writing `target` out once more; if so, it is spent. */
function spend(context: Context, key: string, target: Schema): boolean {
  let size = context.sizes.get(key);
  if (size === undefined) {
    size = JSON.stringify(target).length;
    context.sizes.set(key, size);
  }
  if (size > context.budget) return false;
  context.budget -= size;
  return true;
}

/**
 * Schemas that must all hold (`allOf`, or a reference and what stands beside it), as one, in one
 * pass (an `allOf` may have thousands of parts): the properties and `required` of all, and for
 * anything else the first word given. Where two describe a property, the first description of it
 * is kept whole: wider, never narrower.
 */
function both(...schemas: Schema[]): Schema {
  const merged: Schema = {};
  const properties = new Map<string, unknown>();
  let anyProperties = false;
  const required = new Set<string>();
  for (const schema of schemas) {
    // Defined, not assigned: a key named "__proto__" stays a key.
    for (const [key, value] of Object.entries(schema)) {
      if (!Object.hasOwn(merged, key)) Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
    }
    if (isRecord(schema.properties)) {
      anyProperties = true;
      for (const [name, property] of Object.entries(schema.properties)) if (!properties.has(name)) properties.set(name, property);
    }
    for (const name of requiredList(schema.required)) required.add(name);
  }
  if (anyProperties) merged.properties = Object.fromEntries(properties);
  if (required.size > 0) merged.required = [...required];
  else delete merged.required;
  return merged;
}

function mergeUnion(schema: Schema, key: 'anyOf' | 'oneOf', context: Context, depth: number, inlining: ReadonlySet<string>): Schema {
  const list = schema[key] as unknown[];
  const branches = list.map((branch) => plainNode(branch, context, depth + 1, inlining));
  if (branches.length === 0 || !branches.every(isRecord)) return schema;
  const { [key]: _list, ...rest } = schema;

  // Values: an enum. Titles that say more than the values stay for foldChoiceTitles to read.
  if (branches.every((branch) => 'const' in branch)) {
    // A branch's enum may be wider than its const (a nullable choice merged below).
    const values = uniqueJson(branches.flatMap((branch) => (Array.isArray(branch.enum) ? branch.enum : [branch.const])));
    const titled = branches.some((branch) => typeof branch.title === 'string' && branch.title.trim() !== '' && branch.title.trim() !== String(branch.const));
    return { ...(titled ? schema : rest), ...(Array.isArray(schema.enum) ? {} : { enum: values }) };
  }

  const nullable = branches.some(isNull);
  const others = branches.filter((branch) => !isNull(branch));
  if (others.length === 0) return { ...rest, type: 'null' };
  if (others.length === 1) return withNull(both(rest, others[0]!), nullable);
  if (others.every(isPlainType)) {
    const types = unique(others.flatMap((branch) => asArray(branch.type)));
    // A type validateArgs cannot check ("date", "any") in one branch takes anything there.
    if (!types.every(isKnownType)) return withNull(omitType(rest), nullable);
    return withNull({ ...rest, type: oneOrList(types) }, nullable);
  }
  if (others.every(isObjectSchema)) return withNull(both(rest, mergeObjects(others)), nullable);
  return schema;
}

function isNull(branch: Schema): boolean {
  return branch.type === 'null' || (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null);
}

/** `{type: "string"}`, `{type: "integer", minimum: 0}`: a type and nothing that needs it kept apart. */
function isPlainType(branch: Schema): boolean {
  return (typeof branch.type === 'string' || Array.isArray(branch.type)) && branch.type !== 'object' && branch.type !== 'array' && !('enum' in branch) && !('properties' in branch);
}

function isObjectSchema(branch: Schema): boolean {
  return branch.type === 'object' || (branch.type === undefined && isRecord(branch.properties));
}

/**
 * One object for a call that matches any of `branches`: every property any branch names, taking
 * what any of them allows there (a branch that does not name it takes anything there, unless it
 * takes no other properties), and required only what every branch requires.
 */
function mergeObjects(branches: Schema[]): Schema {
  const names = unique(branches.flatMap((branch) => Object.keys(asRecord(branch.properties))));
  const properties = names.map((name) => {
    const described = branches.flatMap((branch) => (Object.hasOwn(asRecord(branch.properties), name) ? [asRecord(branch.properties)[name]] : []));
    // A branch closed by additionalProperties may still take the name by a pattern.
    const open = branches.some((branch) => !Object.hasOwn(asRecord(branch.properties), name) && (branch.additionalProperties !== false || isRecord(branch.patternProperties)));
    return [name, open || !described.every(isRecord) ? describedOnly(described) : either(described as Schema[])] as const;
  });
  const requiredByAll = requiredList(branches[0]!.required).filter((name) => branches.every((branch) => requiredList(branch.required).includes(name)));
  // A branch without "type" takes values that are not objects too.
  const typed = branches.every((branch) => branch.type === 'object');
  return { ...(typed ? { type: 'object' } : {}), properties: Object.fromEntries(properties), ...(requiredByAll.length > 0 ? { required: requiredByAll } : {}) };
}

/** What takes a value any of `schemas` takes: their common word where they agree, the wider one where they do not. */
function either(schemas: Schema[]): Schema {
  const [first, ...others] = schemas as [Schema, ...Schema[]];
  if (others.every((schema) => JSON.stringify(schema) === JSON.stringify(first))) return first;
  const merged: Schema = describedOnly(schemas);
  if (schemas.every((schema) => schema.type !== undefined && asArray(schema.type).every(isKnownType))) merged.type = oneOrList(unique(schemas.flatMap((schema) => asArray(schema.type))));
  if (schemas.every((schema) => Array.isArray(schema.enum))) merged.enum = unique(schemas.flatMap((schema) => schema.enum as unknown[]));
  if (schemas.every((schema) => typeof schema.minimum === 'number')) merged.minimum = Math.min(...schemas.map((schema) => schema.minimum as number));
  if (schemas.every((schema) => typeof schema.maximum === 'number')) merged.maximum = Math.max(...schemas.map((schema) => schema.maximum as number));
  return merged;
}

/** Nothing but the first description: the value may be anything. */
function describedOnly(schemas: unknown[]): Schema {
  const description = schemas.map((schema) => (isRecord(schema) ? schema.description : undefined)).find((text) => typeof text === 'string');
  return description === undefined ? {} : { description };
}

/** The schema, or null. One that says neither a type nor values takes null already. */
function withNull(schema: Schema, nullable: boolean): Schema {
  if (!nullable) return schema;
  let plain = schema;
  // A type list with a name validateArgs cannot check would, with "null" added, refuse all but null.
  if (plain.type !== undefined && asArray(plain.type).every(isKnownType)) plain = { ...plain, type: unique([...asArray(plain.type), 'null']) };
  if (Array.isArray(plain.enum) && !plain.enum.includes(null)) plain = { ...plain, enum: [...plain.enum, null] };
  return plain;
}

/** `const`, `nullable`, `format` and `default`, said in what the prompt keeps. */
function plainKeywords(schema: Schema): Schema {
  if (!('const' in schema) && schema.nullable !== true && schema.format === undefined && schema.default === undefined) return schema;
  let plain: Schema = schema;
  if ('const' in plain && !Array.isArray(plain.enum)) plain = { ...plain, enum: [plain.const] };
  if (plain.nullable === true) plain = withNull(plain, true);
  const notes = [
    typeof plain.format === 'string' && plain.format !== '' ? `format: ${plain.format}` : undefined,
    plain.default !== undefined ? `default: ${sayDefault(plain.default)}` : undefined,
  ].filter((note): note is string => note !== undefined);
  const own = typeof plain.description === 'string' ? plain.description.trim() : '';
  // First, so that the 160 characters the prompt keeps of a description never cut them off.
  if (notes.length > 0 && !own.startsWith(`(${notes.join(', ')})`)) plain = { ...plain, description: `(${notes.join(', ')})${own === '' ? '' : ` ${own}`}` };
  return plain;
}

function sayDefault(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
