import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { fromJSONSchema, type core } from 'zod';
import { errorMessage } from '../messaging/error-message';
import { formSchema } from './schema-to-form';

/** Where arguments break the page's schema beyond what the agent checks: the first such place. */
export interface SchemaBreach {
  message: string;
  /** The argument (top-level property) it is in, where it is in one. */
  field?: string;
}

/**
 * The page's whole input schema as a check of arguments: `pattern`, lengths, item counts,
 * `multipleOf`, formats, nested objects and arrays, `additionalProperties`, `oneOf` and the rest
 * that the agent's `validateArgs` leaves to the page. `unreadable` says why a schema could not be
 * read so (a reference to nowhere, a pattern that is no regular expression, a keyword zod lacks).
 */
export type FullSchemaCheck = { check(args: Record<string, unknown>): SchemaBreach | null } | { unreadable: string };

export function fullSchemaCheck(schema: JSONSchema): FullSchemaCheck {
  let validator: ReturnType<typeof fromJSONSchema>;
  try {
    validator = fromJSONSchema(withoutTimeFormat(schema) as Parameters<typeof fromJSONSchema>[0]);
  } catch (first) {
    // References under `definitions` and the like: the schema the agent reads has them written out.
    try {
      validator = fromJSONSchema(withoutTimeFormat(formSchema(schema)) as Parameters<typeof fromJSONSchema>[0]);
    } catch {
      return { unreadable: errorMessage(first) };
    }
  }
  return {
    check(args) {
      const result = validator.safeParse(args, { reportInput: true });
      if (result.success) return null;
      const issue = result.error.issues[0]!;
      const [first] = issue.path;
      return { message: breachWords(issue), ...(typeof first === 'string' ? { field: first } : {}) };
    },
  };
}

/**
 * The schema with `format: "time"` left out: a time input gives "14:30", which a form's time field
 * (the commonest such tool) takes, where JSON Schema's time wants "14:30:00Z" (see `schemaToForm`).
 */
function withoutTimeFormat(schema: unknown, depth = 0): unknown {
  if (depth > 64) return schema;
  if (Array.isArray(schema)) return schema.map((item) => withoutTimeFormat(item, depth + 1));
  if (!isRecord(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && value === 'time') continue;
    Object.defineProperty(copy, key, { value: withoutTimeFormat(value, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy;
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
      return `${subject} matches none of the schema's alternatives.`;
    case 'invalid_value':
      return `${subject} must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`}.`;
    case 'invalid_type':
      return issue.input === undefined ? `Missing required argument ${subject}.` : `${subject} must be ${issue.expected}.`;
    default:
      return `${subject}: ${issue.message}`;
  }
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
