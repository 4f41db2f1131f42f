import { isRecord } from '@webmcp-agents/chat';
import { isJsonSchemaType, jsonSchemaTypes } from './json-schema-types';

/** As deep as the model is shown a schema (compactSchema's limit); deeper is not worth a note. */
const depthLimit = 32;
const typeList = `(${jsonSchemaTypes.join(', ')})`;
const notSchema = 'not a schema (an object, or true or false)';

/** How the problems of each of a tool's schemas are told: where they are, and what each costs. */
const wordings = {
  input: {
    schema: 'the input schema',
    at: (path: string) => `"${path}"`,
    unknownType: 'the model is shown it as written',
    noProperties: 'the tool is read as taking no arguments',
  },
  output: {
    schema: 'the output schema',
    at: (path: string) => `"${path}" of the output schema`,
    unknownType: 'a result is not checked against it',
    noProperties: 'they are read as none',
  },
};
type Wording = (typeof wordings)['input'];

/**
 * Where a tool's input (or output) schema is not JSON Schema, through nested properties, items and
 * alternatives: a `type` no validator knows, `properties` that are not an object of schemas,
 * `required` that is not a list of names, `items` that are not a schema, a bound or a length that
 * is not a number. Every other reader
 * (the model's view, the run form, argument and result checks) quietly skips such a keyword, so
 * this is the one place a developer hears of it.
 */
export function schemaShapeProblems(schema: Record<string, unknown>, which: keyof typeof wordings = 'input'): string[] {
  const words = wordings[which];
  const problems = nodeProblems(schema, undefined, 0, words);
  if (problems.length <= shownProblems) return problems;
  // A schema may repeat one mistake thousands of times: a few say what to fix, the card stays short.
  const more = problems.length - shownProblems;
  return [...problems.slice(0, shownProblems), `And ${more.toLocaleString('en-US')} more ${more === 1 ? 'place' : 'places'} where ${words.schema} is not JSON Schema.`];
}

/** The most problems of one tool's schema listed one by one. */
const shownProblems = 10;

/** `path` is where the node sits, as `address.city` or `tags[]`; undefined for the root. */
function nodeProblems(node: Record<string, unknown>, path: string | undefined, depth: number, words: Wording): string[] {
  if (depth > depthLimit) return [];
  const place = path === undefined ? words.schema : words.at(path);
  const problems = typeProblems(node.type, place, words);
  const required = node.required;
  if (required !== undefined && !Array.isArray(required)) {
    problems.push(`The "required" of ${place} is ${describe(required)}, not a list of property names: nothing in it is required.`);
  }
  for (const name of Array.isArray(required) ? required : []) {
    if (typeof name !== 'string') problems.push(`The "required" of ${place} holds ${describe(name)}, not a property name: it is ignored.`);
  }
  problems.push(...boundProblems(node, place));
  problems.push(...propertiesProblems(node.properties, path, place, depth, words));
  problems.push(...itemsProblems(node.items, path, place, depth, words));
  // A branch describes the same value, so it sits at the same place.
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = node[key];
    for (const branch of Array.isArray(branches) ? branches : []) {
      if (isRecord(branch)) problems.push(...nodeProblems(branch, path, depth + 1, words));
    }
  }
  return problems;
}

/** Keywords whose value is a number; `exclusiveMinimum` and `exclusiveMaximum` were booleans before draft 6, and are left alone. */
const numberKeywords = ['minimum', 'maximum', 'multipleOf'];
/** Keywords whose value counts something: a whole number of 0 or more. */
const countKeywords = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];

/** A bound, a length or a count written as something else: every check here skips it. */
function boundProblems(node: Record<string, unknown>, place: string): string[] {
  const problems: string[] = [];
  for (const key of [...countKeywords, ...numberKeywords]) {
    const value = node[key];
    if (value === undefined) continue;
    if (!(typeof value === 'number' && Number.isFinite(value))) problems.push(`The "${key}" of ${place} is ${describe(value)}, not a number: nothing checks it.`);
    else if (countKeywords.includes(key) && !(Number.isInteger(value) && value >= 0)) problems.push(`The "${key}" of ${place} is ${describe(value)}: JSON Schema asks for a whole number of 0 or more.`);
  }
  return problems;
}

function typeProblems(type: unknown, place: string, words: Wording): string[] {
  if (type === undefined) return [];
  if (!Array.isArray(type)) return isJsonSchemaType(type) ? [] : [`The type of ${place} is ${describe(type)}, not a JSON Schema type ${typeList}: ${words.unknownType}.`];
  return type.filter((name) => !isJsonSchemaType(name)).map((name) => `The types of ${place} include ${describe(name)}, not a JSON Schema type ${typeList}: ${words.unknownType}.`);
}

function propertiesProblems(properties: unknown, path: string | undefined, place: string, depth: number, words: Wording): string[] {
  if (properties === undefined) return [];
  if (!isRecord(properties)) {
    const readAs = path === undefined ? words.noProperties : 'they are read as none';
    return [`The properties of ${place} are ${describe(properties)}, not an object of named schemas: ${readAs}.`];
  }
  return Object.entries(properties).flatMap(([name, property]) => {
    const propertyPath = path === undefined ? name : `${path}.${name}`;
    return subschemaProblems(property, propertyPath, depth, words, (shown) => `The property ${words.at(propertyPath)} is ${shown}, ${notSchema}: it is read as allowing any value.`);
  });
}

// An array of schemas is the tuple form of drafts before 2020-12, which compactSchema still reads.
function itemsProblems(items: unknown, path: string | undefined, place: string, depth: number, words: Wording): string[] {
  if (items === undefined) return [];
  const itemPath = `${path ?? ''}[]`;
  if (Array.isArray(items)) {
    return items.flatMap((item) => subschemaProblems(item, itemPath, depth, words, (shown) => `The items of ${place} hold ${shown}, ${notSchema}: that item is read as allowing any value.`));
  }
  return subschemaProblems(items, itemPath, depth, words, (shown) => `The items of ${place} are ${shown}, ${notSchema}: they are read as allowing any value.`);
}

/** A schema is an object, or true or false (anything, nothing); `problem` says so of anything else. */
function subschemaProblems(schema: unknown, path: string, depth: number, words: Wording, problem: (shown: string) => string): string[] {
  if (isRecord(schema)) return nodeProblems(schema, path, depth + 1, words);
  return typeof schema === 'boolean' ? [] : [problem(describe(schema))];
}

const shownLimit = 40;

/** A value as a developer wrote it, when short: `"integr"`, `3`, `null`; a list or object by its kind. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  const characters = [...text];
  return characters.length > shownLimit ? `${characters.slice(0, shownLimit).join('')}…` : text;
}
