import { decimalText } from '../text/decimal-text';
import { isRecord } from '@webmcp-agents/chat';
import { hasType, knownTypes } from '@webmcp-agents/local-agent';
import { withNull } from './merge-schemas';
import { asArray, isKnownType, omitType, type Schema } from './schema-values';

/**
 * `const`, `nullable`, `multipleOf`, `format` and `default`, said in what the prompt keeps: a number
 * in whole steps is an integer, and other steps, the format and the default are said in the
 * description (only with `describe`).
 */
export function plainKeywords(schema: Schema, describe = true): Schema {
  const step = typeof schema.multipleOf === 'number' && Number.isFinite(schema.multipleOf) && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (!('const' in schema) && schema.nullable !== true && step === undefined && schema.format === undefined && schema.default === undefined) return schema;
  let plain: Schema = schema;
  if ('const' in plain && !Array.isArray(plain.enum)) plain = { ...plain, enum: [plain.const] };
  if (plain.nullable === true) plain = withNull(plain, true);
  if (step !== undefined && Number.isInteger(step)) plain = wholeNumber(plain);
  if (!describe) return plain;
  const notes = [
    step !== undefined && !wholeNumbersAreMultiplesOf(plain, step) ? `a multiple of ${decimalText(step)}` : undefined,
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

/** Whether a value the schema's types take is a multiple of `step` whatever it is: a whole number where `step` divides 1 (1, 0.5, 0.25). */
function wholeNumbersAreMultiplesOf(schema: Schema, step: number): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const parts = 1 / step;
  return types.includes('integer') && !types.includes('number') && Math.abs(parts - Math.round(parts)) < 1e-9;
}

/** A number that only takes multiples of a whole step takes whole numbers: its type says so. */
function wholeNumber(schema: Schema): Schema {
  if (schema.type === 'number') return { ...schema, type: 'integer' };
  if (Array.isArray(schema.type) && schema.type.includes('number')) {
    const types = [...new Set(schema.type.map((type) => (type === 'number' ? 'integer' : type)))];
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  return schema;
}

/**
 * A schema whose `enum` lists no value of the type it gives (`{type: "boolean", enum: ["True",
 * "False"]}`), which no value can meet, read as its values say: the enum of a list's items where
 * the type is a list and the values are not (`{type: "array", enum: ["a", "b"]}`), else the values
 * without the type. The page's server took those values; the model and the run form offer them.
 */
export function valuesOverType(schema: Schema): Schema {
  if (!Array.isArray(schema.enum) || !asArray(schema.type).every(isKnownType)) return schema;
  // Null, which a nullable field adds to both, says nothing of whether the others agree.
  const values = schema.enum.filter((value) => value !== null);
  const types = knownTypes(schema.type).filter((type) => type !== 'null');
  if (values.length === 0 || types.length === 0) return schema;
  if (values.some((value) => types.some((type) => hasType(value, type)))) return schema;
  const { enum: _enum, ...rest } = schema;
  if (types.includes('array') && !values.some(Array.isArray)) return { ...rest, items: { ...(isRecord(schema.items) ? schema.items : {}), enum: values } };
  return omitType(schema);
}
