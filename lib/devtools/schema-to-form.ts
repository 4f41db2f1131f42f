import type { JSONSchema } from '@webmcp-agents/chat';
import { firstType, isRecord, jsonTemplate } from './json-template';

interface FieldBase {
  name: string;
  required: boolean;
  description?: string;
}

/** One input of the run form, derived from one property of the tool's input schema. */
export type FormField =
  | (FieldBase & { kind: 'text' })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'select'; options: unknown[] })
  | (FieldBase & { kind: 'json'; template: string });

/**
 * The run form of a tool: text, number and integer (with min and max), boolean, an enum as a
 * select, and a JSON editor prefilled from the schema for nested objects, arrays and anything
 * else. A schema with no properties gives no fields.
 */
export function schemaToForm(schema: JSONSchema): FormField[] {
  if (!isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : []);
  return Object.entries(schema.properties).map(([name, property]) => fieldFor(name, property, required.has(name)));
}

function fieldFor(name: string, property: unknown, required: boolean): FormField {
  const node: JSONSchema = isRecord(property) ? property : {};
  const base: FieldBase = {
    name,
    required,
    ...(typeof node.description === 'string' && node.description !== '' ? { description: node.description } : {}),
  };
  if (Array.isArray(node.enum) && node.enum.length > 0) return { ...base, kind: 'select', options: node.enum };
  const type = firstType(node);
  if (type === 'string') return { ...base, kind: 'text' };
  if (type === 'boolean') return { ...base, kind: 'boolean' };
  if (type === 'number' || type === 'integer') {
    return {
      ...base,
      kind: 'number',
      integer: type === 'integer',
      ...(typeof node.minimum === 'number' ? { minimum: node.minimum } : {}),
      ...(typeof node.maximum === 'number' ? { maximum: node.maximum } : {}),
    };
  }
  return { ...base, kind: 'json', template: JSON.stringify(jsonTemplate(node), null, 2) };
}
