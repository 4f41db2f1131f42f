import { withNull } from './merge-schemas';
import type { Schema } from './schema-values';

/** `const`, `nullable`, `format` and `default`, said in what the prompt keeps; the last two only with `describe`. */
export function plainKeywords(schema: Schema, describe = true): Schema {
  if (!('const' in schema) && schema.nullable !== true && schema.format === undefined && schema.default === undefined) return schema;
  let plain: Schema = schema;
  if ('const' in plain && !Array.isArray(plain.enum)) plain = { ...plain, enum: [plain.const] };
  if (plain.nullable === true) plain = withNull(plain, true);
  if (!describe) return plain;
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
