import type { FormField } from './schema-to-form';

/** What the form's inputs hold: text for text, number, select (the option's index) and JSON; a flag for a checkbox. */
export type FieldValues = Record<string, string | boolean>;

export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/**
 * The call's arguments from the form: empty optional fields are left out, numbers are read as
 * numbers (a non-number is passed on as text, for `validateArgs` to name), JSON is parsed.
 * A required field left empty is sent as "" so `validateArgs` reports it as missing.
 */
export function formValuesToArgs(fields: readonly FormField[], values: FieldValues): ArgsResult {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      args[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '') {
      if (field.required) args[field.name] = '';
      continue;
    }
    const read = readField(field, text);
    if (!read.ok) return read;
    args[field.name] = read.value;
  }
  return { ok: true, args };
}

function readField(field: FormField, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (field.kind) {
    case 'number': {
      const value = Number(text);
      return { ok: true, value: Number.isFinite(value) ? value : text };
    }
    case 'select':
      return { ok: true, value: field.options[Number(text)] };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch {
        return { ok: false, message: `"${field.name}" is not valid JSON.` };
      }
    default:
      return { ok: true, value: text };
  }
}

/** The values a fresh form starts with: empty, unchecked, JSON editors prefilled. */
export function initialFieldValues(fields: readonly FormField[]): FieldValues {
  const values: FieldValues = {};
  for (const field of fields) values[field.name] = field.kind === 'boolean' ? false : field.kind === 'json' ? field.template : '';
  return values;
}
