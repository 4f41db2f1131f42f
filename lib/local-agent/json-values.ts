import { isRecord } from '@webmcp-agents/chat';
import { cutText } from './cut-text';

/** What checking JSON values against a schema needs: `validateArgs` for a model's call, the inspector for a result. */

const typeNames = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type TypeName = (typeof typeNames)[number];

/** The JSON Schema type names in `type` (one or a list); others (`"date"`, `"any"`) are left out, so not checked. */
export function knownTypes(type: unknown): TypeName[] {
  const names = Array.isArray(type) ? type : [type];
  return names.filter((name): name is TypeName => typeNames.includes(name as TypeName));
}

/** Whether a value has a JSON Schema type: a `number` is finite, an `integer` whole. */
export function hasType(value: unknown, type: TypeName): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
  }
}

/** Longest rendering of a value inside a message: the model needs a hint, not its whole output. */
const valueLimit = 60;

/** A value as JSON (`2.5`, `"two"`, `null`), cut short when long. */
export function describeValue(value: unknown): string {
  let text: string | undefined;
  try {
    text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  } catch {
    text = undefined; // a cycle or a bigint: not JSON, so say what kind of thing it is instead
  }
  text ??= typeof value;
  return text.length > valueLimit ? `${cutText(text, valueLimit)}…` : text;
}

const nameLimit = 200;

/**
 * An argument's name in quotes (`"qty"`), whole: the model must write it exactly, and the inspector
 * finds its field by it. Only a page's absurdly long one is cut, inside the quotes.
 */
export function describeName(name: string): string {
  return name.length > nameLimit ? `${JSON.stringify(cutText(name, nameLimit - 1)).slice(0, -1)}…"` : JSON.stringify(name);
}

// JSON equality, as JSON Schema's `enum` and `const` mean it: the order of an object's keys does not count.
// Depth-bounded, so a cycle in a page's schema or the model's arguments ends as "not equal".
export function sameJson(left: unknown, right: unknown, depth = 0): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null || depth > 32) {
    return false;
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => sameJson(item, right[index], depth + 1))
    );
  }
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  return (
    leftKeys.length === Object.keys(right).length &&
    leftKeys.every((key) => Object.hasOwn(right, key) && sameJson((left as Record<string, unknown>)[key], rightRecord[key], depth + 1))
  );
}

/**
 * A value as JSON with every object's keys in order, so that values equal as JSON (`{"a":1,"b":2}`
 * and `{"b":2,"a":1}`) give the same text: a key to compare calls and results by.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  ) ?? 'undefined';
}
