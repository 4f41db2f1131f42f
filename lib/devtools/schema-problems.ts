import { isRecord } from '@webmcp-agents/chat';
import { describeValue as describe, hasType, knownTypes, sameJson } from '@webmcp-agents/local-agent';
import { longestPatternValue, mayBacktrack } from './risky-pattern';

/**
 * What in `value` a JSON Schema refuses, each problem named by where it is (`"items[2].price"
 * must be number, got "12"`), the first `limit` of them in document order. Unlike the agent's
 * `validateArgs`, which checks a call's top level only and speaks to a model, this goes down every
 * level, for a person reading a tool's result: `type`, `enum`, `const`, `required` (an empty string
 * counts as given), `properties`, `additionalProperties`, `items` and `prefixItems`, `anyOf`,
 * `oneOf` and `allOf`, the bounds of numbers, strings and lists, and `pattern`. A keyword it does
 * not know, an unknown type name, a pattern that does not compile or could backtrack for long
 * (`mayBacktrack`, or a value past 1,000 characters) constrains nothing: a page's
 * slip in its schema is the lint's to name, not a result's fault. Never throws.
 */
export function schemaProblems(schema: unknown, value: unknown, limit = 3): string[] {
  const problems: string[] = [];
  check(schema, value, [], { problems, limit, work: { left: workLimit } });
  return problems;
}

interface Found {
  problems: string[];
  limit: number;
  /** Values still to look at, shared with the tries of a union's branches. */
  work: { left: number };
}

/**
 * The most values one check looks at: unions nested in a page's schema could make the tries
 * multiply without end. Past it the rest is taken as it is.
 */
const workLimit = 100_000;

type Path = ReadonlyArray<string | number>;

/** Past this depth a value is not looked into (a page's schema may refer to itself without end). */
const depthLimit = 32;

function check(schema: unknown, value: unknown, path: Path, found: Found): void {
  if (!isRecord(schema) || found.problems.length >= found.limit || path.length > depthLimit || found.work.left-- <= 0) return;
  const say = (problem: string) => report(found, path, problem);
  const types = knownTypes(schema.type);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return say(path.length === 0 && types.length === 1 && types[0] === 'object'
      ? `is ${describe(value)}, not a JSON object`
      : `must be ${types.join(' or ')}, got ${describe(value)}`);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && !schema.enum.some((choice) => sameJson(choice, value))) {
    return say(`must be one of ${schema.enum.map(describe).join(', ')}`);
  }
  if ('const' in schema && !sameJson(schema.const, value)) return say(`must be ${describe(schema.const)}`);
  const before = found.problems.length;
  checkBounds(schema, value, say);
  if (found.problems.length > before) return;
  if (!checkChoices(schema, value, path, found, say)) return;
  if (isRecord(value)) checkObject(schema, value, path, found, say);
  else if (Array.isArray(value)) checkArray(schema, value, path, found);
}

function checkBounds(schema: Record<string, unknown>, value: unknown, say: (problem: string) => void): void {
  if (typeof value === 'number') {
    if (isNumber(schema.minimum) && value < schema.minimum) return say(`must be at least ${schema.minimum}, got ${value}`);
    if (isNumber(schema.maximum) && value > schema.maximum) return say(`must be at most ${schema.maximum}, got ${value}`);
    if (isNumber(schema.exclusiveMinimum) && value <= schema.exclusiveMinimum) return say(`must be more than ${schema.exclusiveMinimum}, got ${value}`);
    if (isNumber(schema.exclusiveMaximum) && value >= schema.exclusiveMaximum) return say(`must be less than ${schema.exclusiveMaximum}, got ${value}`);
  } else if (typeof value === 'string') {
    const length = [...value].length;
    if (isNumber(schema.minLength) && length < schema.minLength) return say(`must be at least ${count(schema.minLength, 'character')} long, got ${length}`);
    if (isNumber(schema.maxLength) && length > schema.maxLength) return say(`must be at most ${count(schema.maxLength, 'character')} long, got ${length}`);
    // A page's pattern on the page's own value: one that could backtrack for minutes is not run.
    const runnable = typeof schema.pattern === 'string' && value.length <= longestPatternValue && !mayBacktrack(schema.pattern);
    const pattern = runnable ? compiled(schema.pattern as string) : undefined;
    if (pattern && !pattern.test(value)) return say(`must match ${describe(schema.pattern)}, got ${describe(value)}`);
  } else if (Array.isArray(value)) {
    if (isNumber(schema.minItems) && value.length < schema.minItems) return say(`must have at least ${count(schema.minItems, 'item')}, got ${value.length}`);
    if (isNumber(schema.maxItems) && value.length > schema.maxItems) return say(`must have at most ${count(schema.maxItems, 'item')}, got ${value.length}`);
  }
}

/** `allOf` parts are checked in place; `anyOf` / `oneOf` must let the value through one branch. False where one did not. */
function checkChoices(schema: Record<string, unknown>, value: unknown, path: Path, found: Found, say: (problem: string) => void): boolean {
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    // Each branch is tried where the value is, so its depth counts on from here.
    const fits = (branch: unknown) => {
      const tried: Found = { problems: [], limit: 1, work: found.work };
      check(branch, value, path, tried);
      return tried.problems.length === 0;
    };
    if (!branches.some(fits)) {
      say(`matches none of the ${branches.length} shapes its schema allows`);
      return false;
    }
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) check(part, value, path, found);
  return true;
}

function checkObject(schema: Record<string, unknown>, value: Record<string, unknown>, path: Path, found: Found, say: (problem: string) => void): void {
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) {
      if (typeof name === 'string' && !(Object.hasOwn(value, name) && value[name] !== undefined)) report(found, [...path, name], 'is missing');
    }
  }
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [name, item] of Object.entries(value)) {
    if (found.problems.length >= found.limit) return;
    if (Object.hasOwn(properties, name)) check(properties[name], item, [...path, name], found);
    else if (schema.additionalProperties === false) say(`has ${describe(name)}, which its schema does not allow`);
    else check(schema.additionalProperties, item, [...path, name], found);
  }
}

function checkArray(schema: Record<string, unknown>, value: unknown[], path: Path, found: Found): void {
  // Draft 2020-12 says `prefixItems` and then `items` for the rest; drafts before it, `items` as a list.
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  value.forEach((item, index) => {
    if (found.problems.length < found.limit) check(index < prefix.length ? prefix[index] : rest, item, [...path, index], found);
  });
}

function report(found: Found, path: Path, problem: string): void {
  if (found.problems.length < found.limit) found.problems.push(`${where(path)} ${problem}`);
}

/**
 * `"items[2].price"`, or "it" for the value itself. A key that is not a plain name goes in brackets
 * (`"prices['unit price']"`), except alone: `"unit price"`.
 */
function where(path: Path): string {
  if (path.length === 0) return 'it';
  const [first] = path;
  if (path.length === 1 && typeof first === 'string') return JSON.stringify(first);
  const steps = path.map((step, index) => {
    if (typeof step === 'number') return `[${step}]`;
    if (/^[\p{L}_$][\p{L}\p{N}_$-]*$/u.test(step)) return index === 0 ? step : `.${step}`;
    return `['${step.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}']`;
  });
  return JSON.stringify(steps.join(''));
}

const patterns = new Map<string, RegExp | undefined>();

function compiled(pattern: string): RegExp | undefined {
  if (!patterns.has(pattern)) {
    if (patterns.size >= 100) patterns.clear();
    let expression: RegExp | undefined;
    try {
      expression = new RegExp(pattern, 'u');
    } catch {
      expression = undefined;
    }
    patterns.set(pattern, expression);
  }
  return patterns.get(pattern);
}

function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
