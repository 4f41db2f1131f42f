import { isRecord } from '@webmcp-agents/chat';
import { asArray, asRecord, isKnownType, omitType, oneOrList, requiredList, unique, uniqueJson, type Schema } from './schema-values';

/**
 * Schemas that must all hold (`allOf`, or a reference and what stands beside it), as one, in one
 * pass (an `allOf` may have thousands of parts): the properties and `required` of all, and for
 * anything else the first word given. Where two describe a property, the first description of it
 * is kept whole: wider, never narrower.
 */
export function both(...schemas: Schema[]): Schema {
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

/** A union (`anyOf` / `oneOf`) as one schema, from its branches already made plain; as it is where they cannot be merged. */
export function mergeUnion(schema: Schema, key: 'anyOf' | 'oneOf', written: unknown[]): Schema {
  // A branch that matches nothing (zod writes `{not: {}}` for an optional inside a union) adds nothing.
  const branches = written.filter((branch) => !matchesNothing(branch));
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
  // Plain types, and at most one list (pydantic's `Union[List[str], str]`), whose items stay said.
  const lists = others.filter(isPlainList);
  if (lists.length <= 1 && others.every((branch) => isPlainType(branch) || isPlainList(branch))) {
    const types = unique(others.flatMap((branch) => asArray(branch.type)));
    // A type validateArgs cannot check ("date", "any") in one branch takes anything there.
    if (!types.every(isKnownType)) return withNull(omitType(rest), nullable);
    const items = lists[0]?.items;
    return withNull({ ...rest, type: oneOrList(types), ...(items !== undefined ? { items } : {}) }, nullable);
  }
  if (others.every(isObjectSchema)) return withNull(both(rest, mergeObjects(others)), nullable);
  return schema;
}

function isNull(branch: Schema): boolean {
  return branch.type === 'null' || (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null);
}

/** `{type: "string"}`, `{type: "integer", minimum: 0}`: a type and nothing that needs it kept apart. */
function isPlainType(branch: Schema): boolean {
  const types = asArray(branch.type);
  return types.length > 0 && !types.includes('object') && !types.includes('array') && !('enum' in branch) && !('properties' in branch);
}

/** `{type: "array", items: {…}}` (or `["array", "null"]`): a list, and nothing that needs it kept apart. */
function isPlainList(branch: Schema): boolean {
  const types = asArray(branch.type);
  return types.includes('array') && !types.includes('object') && !('enum' in branch) && !('properties' in branch);
}

/** `false`, or `{not: {}}`: no value matches it. */
function matchesNothing(branch: unknown): boolean {
  return branch === false || (isRecord(branch) && Object.keys(branch).length === 1 && isRecord(branch.not) && Object.keys(branch.not).length === 0);
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
export function withNull(schema: Schema, nullable: boolean): Schema {
  if (!nullable) return schema;
  let plain = schema;
  // A type list with a name validateArgs cannot check would, with "null" added, refuse all but null.
  if (plain.type !== undefined && asArray(plain.type).every(isKnownType)) plain = { ...plain, type: unique([...asArray(plain.type), 'null']) };
  if (Array.isArray(plain.enum) && !plain.enum.includes(null)) plain = { ...plain, enum: [...plain.enum, null] };
  return plain;
}
