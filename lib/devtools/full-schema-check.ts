import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { fromJSONSchema, type core } from 'zod';
import { errorMessage } from '../messaging/error-message';
import { formSchema } from './schema-to-form';
import { listed } from '../text/listed';
import { mayBacktrack } from './risky-pattern';

/** Where arguments break the page's schema beyond what the agent checks: the first few such places, said in order. */
export interface SchemaBreach {
  message: string;
  /** The argument (top-level property) the first is in, where it is in one. */
  field?: string;
  /** Every argument a broken rule is in, in order: the form marks each. */
  fields: string[];
  /** How many rules the arguments break (more than are said, past three). */
  count: number;
}

/** The most broken rules said at once: the person fixes them in one go, and a long list would hide the first. */
const saidAtOnce = 3;

/** The arguments the rules not said are in, so that the person knows where else to look: `, in "day" and "email"`. */
function inFields(issues: readonly core.$ZodIssue[]): string {
  const names = [...new Set(issues.flatMap(({ path: [first] }) => (typeof first === 'string' ? [JSON.stringify(first.length > 60 ? `${first.slice(0, 59)}…` : first)] : [])))];
  if (names.length === 0) return '';
  const shown = names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} more`] : names;
  return `, in ${listed(shown)}`;
}

/**
 * The page's whole input schema as a check of arguments: `pattern`, lengths, item counts,
 * `multipleOf`, formats, nested objects and arrays, `additionalProperties`, `oneOf` and the rest
 * that the agent's `validateArgs` leaves to the page. `unreadable` says why a schema could not be
 * read so (a pattern that is no regular expression, a keyword zod lacks). Where zod is stricter
 * than JSON Schema the rule goes unchecked rather than refuse what the page takes: an `enum` or
 * `const` of objects, a pattern written for Unicode (tried again with the `u` flag), lenient
 * formats; so does a pattern that could take seconds on some input (`mayBacktrack`).
 */
export type FullSchemaCheck = { check(args: Record<string, unknown>): SchemaBreach | null } | { unreadable: string };

export function fullSchemaCheck(schema: JSONSchema): FullSchemaCheck {
  let validator: ReturnType<typeof fromJSONSchema>;
  try {
    validator = fromJSONSchema(checkable(schema) as Parameters<typeof fromJSONSchema>[0]);
  } catch (first) {
    // References under `definitions` and the like: the schema the agent reads has them written out.
    try {
      validator = fromJSONSchema(checkable(formSchema(schema)) as Parameters<typeof fromJSONSchema>[0]);
    } catch {
      return { unreadable: errorMessage(first) };
    }
  }
  return {
    check(args) {
      try {
        const result = validator.safeParse(ownValues(args), { reportInput: true });
        if (result.success) return null;
        const issues = result.error.issues.filter((found) => !stricterThanJsonSchema(found));
        if (issues.length === 0) return null;
        const said = issues.slice(0, saidAtOnce).map((issue) => cut(breachWords(issue)));
        const more = issues.length - said.length;
        const message = more > 0 ? `${said.join(' ')} And ${more} more${inFields(issues.slice(said.length))}.` : said.join(' ');
        const [first] = issues[0]!.path;
        const fields = [...new Set(issues.flatMap(({ path: [field] }) => (typeof field === 'string' ? [field] : [])))];
        return { message, count: issues.length, fields, ...(typeof first === 'string' ? { field: first } : {}) };
      } catch (error) {
        // A schema that refers to itself, over values nested past the stack: said, and left to the person.
        return { message: `The page's whole schema could not be checked against these arguments (${errorMessage(error)}).`, count: 1, fields: [] };
      }
    },
  };
}

/** Formats zod reads otherwise than JSON Schema: a time input's "14:30" (see `schemaToForm`), a relative reference taken for a URL. */
const uncheckedFormats = new Set(['time', 'uri-reference', 'iri-reference', 'iri', 'uri-template']);

/**
 * The schema without what zod would check wrongly (see `FullSchemaCheck`): the formats above, an
 * `enum` or `const` holding objects (zod compares objects by identity, and the schema is copied),
 * and a pattern whose group repeats a repeat, which backtracks for seconds on some input.
 */
function checkable(schema: unknown, depth = 0, branchOf?: Record<string, unknown>): unknown {
  if (depth > 64 || !isRecord(schema)) return schema;
  const copy: Record<string, unknown> = {};
  // Alternatives speak of the properties beside them: `{required: ["id"]}` means that `id`.
  const properties = isRecord(schema.properties) ? schema.properties : branchOf;
  const node = (value: unknown, beside?: Record<string, unknown>) => checkable(value, depth + 1, beside);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && typeof value === 'string' && uncheckedFormats.has(value)) continue;
    if (key === 'enum' && Array.isArray(value) && value.some((option) => typeof option === 'object' && option !== null)) continue;
    if (key === 'const' && typeof value === 'object' && value !== null) continue;
    if (key === 'pattern' && typeof value === 'string' && mayBacktrack(value)) continue;
    // Schemas are gone into; names (`properties`' keys) and values (`default`, `enum`) are kept as written.
    let checked = value;
    if (mapKeywords.has(key) && isRecord(value)) checked = mapValues(value, (item) => node(item));
    else if (branchKeywords.has(key) && Array.isArray(value)) checked = value.map((item) => node(item, properties ?? {}));
    else if (schemaKeywords.has(key)) checked = Array.isArray(value) ? value.map((item) => node(item)) : node(value);
    Object.defineProperty(copy, key, { value: checked, enumerable: true, writable: true, configurable: true });
  }
  // zod reads a schema without a type as "anything", its object keywords unread, and a required
  // name only where a property describes it: an alternative written `{required: ["id"]}` beside
  // the properties would match every value. (A name no property may have, under
  // `additionalProperties: false`, is left as it is: no value could be right.)
  if (branchOf !== undefined && !('type' in copy) && objectKeywords.some((key) => key in copy)) copy.type = 'object';
  if (Array.isArray(copy.required) && copy.additionalProperties !== false) {
    const described: Record<string, unknown> = isRecord(copy.properties) ? { ...copy.properties } : {};
    for (const name of copy.required) {
      if (typeof name !== 'string' || Object.hasOwn(described, name)) continue;
      const property = properties && Object.hasOwn(properties, name) ? node(properties[name]) : anyValue;
      Object.defineProperty(described, name, { value: property, enumerable: true, writable: true, configurable: true });
    }
    copy.properties = described;
  }
  return copy;
}

/** A copy of a map (`properties`, `$defs`) with each value changed; its keys kept, `__proto__` too. */
function mapValues(map: Record<string, unknown>, change: (value: unknown) => unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map)) Object.defineProperty(copy, key, { value: change(value), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Keywords whose value maps names to schemas. */
const mapKeywords = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Keywords whose value is a schema, or a list of them. */
const schemaKeywords = new Set(['items', 'prefixItems', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'contains', 'not', 'if', 'then', 'else']);

/** Keywords whose schemas are alternatives or parts of the node they are in. */
const branchKeywords = new Set(['oneOf', 'anyOf', 'allOf']);

/** Any value at all, which zod takes as present only where it is: a required name no property describes. */
const anyValue = { type: ['string', 'number', 'boolean', 'object', 'array', 'null'] };

/** Keywords that speak only of objects. */
const objectKeywords = ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'];

/**
 * An issue zod raises where JSON Schema would not: a pattern that matches once read with the `u`
 * flag, as JSON Schema reads patterns (`\p{L}`, an emoji as one character); an e-mail address zod's
 * narrow rule refuses ("user@localhost"); a date-time with a lower-case "t" or "z".
 */
function stricterThanJsonSchema(issue: core.$ZodIssue): boolean {
  if (issue.code !== 'invalid_format' || typeof issue.input !== 'string') return false;
  const input = issue.input;
  if (issue.format === 'email') return /^[^\s@]+@[^\s@]+$/.test(input);
  if (issue.format === 'datetime') return /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(input);
  if (issue.format !== 'regex' || !('pattern' in issue) || typeof issue.pattern !== 'string') return false;
  try {
    return new RegExp(patternText(issue.pattern), 'u').test(input);
  } catch {
    return false;
  }
}

/** A message of a reasonable length: a schema may list 50,000 values, or nest a long path. */
function cut(message: string): string {
  return message.length <= 300 ? message : `${message.slice(0, 299)}…`;
}

/** The issue in the inspector's words: where (`"address.zip"`, `"tags[1]"`), then what the schema asks. */
function breachWords(issue: core.$ZodIssue): string {
  const where = issue.path.length > 0 ? `"${pathText(issue.path)}"` : undefined;
  const subject = where ?? 'The arguments';
  switch (issue.code) {
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') return `${subject} must match ${patternText(issue.pattern)}.`;
      return `${subject} must be ${formatWords[issue.format] ?? `in the format "${issue.format}"`}.`;
    case 'too_small':
      return `${subject} must ${sizeWords(issue.origin, issue.inclusive ? 'at least' : 'more than', issue.minimum)}.`;
    case 'too_big':
      return `${subject} must ${sizeWords(issue.origin, issue.inclusive ? 'at most' : 'less than', issue.maximum)}.`;
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${String(issue.divisor)}.`;
    case 'unrecognized_keys':
      return `${where ? `${where} has` : 'The arguments have'} ${plural(issue.keys.length, 'a key', 'keys')} the schema does not allow: ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}.`;
    case 'invalid_union':
      // A required name that may be of any type, absent.
      if (where && 'input' in issue && issue.input === undefined) return `Missing required argument ${where}.`;
      // `oneOf` wants exactly one: zod says so where the value matched more.
      if ('inclusive' in issue && issue.inclusive === false) return `${subject} ${where ? 'matches' : 'match'} more than one of the schema's alternatives, where ${where ? 'it' : 'they'} must match exactly one.`;
      return `${subject} ${where ? 'matches' : 'match'} none of the schema's alternatives${nearestMiss(issue)}.`;
    case 'invalid_value':
      return `${subject} must be ${valuesWords(issue.values)}.`;
    case 'invalid_type':
      return issue.input === undefined ? `Missing required argument ${subject}.` : `${subject} must be ${issue.expected}.`;
    default:
      return `${subject}: ${issue.message}`;
  }
}

/** What keeps the value from the alternative it comes nearest (the fewest rules broken): " (the nearest: …)". */
function nearestMiss(issue: core.$ZodIssue): string {
  const branches = 'errors' in issue && Array.isArray(issue.errors) ? (issue.errors as core.$ZodIssue[][]) : [];
  const nearest = branches.filter((branch) => branch.length > 0).sort((a, b) => a.length - b.length)[0]?.[0];
  if (nearest === undefined) return '';
  const words = breachWords({ ...nearest, path: [...issue.path, ...nearest.path] } as core.$ZodIssue).replace(/\.$/, '');
  return ` (the nearest: ${words})`;
}

function valuesWords(values: readonly unknown[]): string {
  if (values.length === 1) return JSON.stringify(values[0]);
  if (values.length > 10) return `one of the ${values.length.toLocaleString('en-US')} values the schema lists`;
  return `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
}

const formatWords: Record<string, string> = {
  email: 'an email address',
  url: 'a URL',
  date: 'a date such as 2026-12-05',
  datetime: 'a date and time such as 2026-12-05T14:30:00Z',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

function sizeWords(origin: string, bound: string, limit: number | bigint): string {
  const count = Number(limit);
  if (origin === 'string') return `have ${bound} ${plural(count, '1 character', `${count} characters`)}`;
  if (origin === 'array' || origin === 'set') return `have ${bound} ${plural(count, '1 item', `${count} items`)}`;
  if (origin === 'object') return `have ${bound} ${plural(count, '1 key', `${count} keys`)}`;
  return `be ${bound} ${String(limit)}`;
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${String(part)}`)).join('');
}

/** zod writes a pattern as a regular expression literal (`/^[A-Z]{3}$/`): the schema wrote what is between the slashes. */
function patternText(pattern: string): string {
  const literal = /^\/(.*)\/[a-z]*$/s.exec(pattern);
  return literal ? literal[1]! : pattern;
}

/**
 * The arguments with objects that have no prototype: zod reads a property by its name, and would
 * read `toString` or `constructor` the person left out from what every object inherits.
 */
function ownValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownValues);
  if (typeof value !== 'object' || value === null) return value;
  const own: Record<string, unknown> = Object.create(null);
  for (const [key, entry] of Object.entries(value)) own[key] = ownValues(entry);
  return own;
}
