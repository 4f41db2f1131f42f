import { isRecord } from '@webmcp-agents/chat';

/** A schema as a page wrote it: any keyword may hold anything, so what follows reads them leniently. */
export type Schema = Record<string, unknown>;

export function asRecord(value: unknown): Schema {
  return isRecord(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** `"string"` for one type, `["string", "integer"]` for several. */
export function oneOrList(types: unknown[]): unknown {
  return types.length === 1 ? types[0] : types;
}

export function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

const knownTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
export function isKnownType(type: unknown): boolean {
  return knownTypes.includes(type as string);
}

export function omitType(schema: Schema): Schema {
  const { type: _type, ...rest } = schema;
  return rest;
}

export function requiredList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}

export function uniqueJson(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value) ?? String(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
