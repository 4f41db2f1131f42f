import { controlDescription, namedControls, type FormControl } from './form-controls';

type Schema = Record<string, unknown>;

/**
 * The input schema of a `<form toolname>`, as Chrome derives it: each named field becomes a
 * property (text, number with min and max, boolean for a lone checkbox, an enum for a select or
 * radio group, an array for a multiple select or checkbox group); `required` fields are required.
 */
export function formToolSchema(form: HTMLFormElement): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [name, controls] of namedControls(form)) {
    const schema = fieldSchema(controls);
    if (!schema) continue;
    const description = controlDescription(controls);
    properties[name] = description ? { ...schema, description } : schema;
    if (controls.some((control) => control.required)) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function fieldSchema(controls: readonly FormControl[]): Schema | undefined {
  const first = controls[0];
  if (!first) return undefined;
  if (first instanceof HTMLSelectElement) {
    const values = Array.from(first.options, (option) => option.value);
    return first.multiple ? { type: 'array', items: { type: 'string', enum: values } } : { type: 'string', enum: values };
  }
  if (first instanceof HTMLTextAreaElement) return { type: 'string' };
  if (first.type === 'radio') return { type: 'string', enum: controls.map((control) => control.value) };
  if (first.type === 'checkbox') {
    if (controls.length === 1) return { type: 'boolean' };
    return { type: 'array', items: { type: 'string', enum: controls.map((control) => control.value) } };
  }
  if (first.type === 'number' || first.type === 'range') return numberSchema(first);
  if (first.type === 'date') return { type: 'string', format: 'date' };
  return { type: 'string' };
}

function numberSchema(input: HTMLInputElement): Schema {
  const schema: Schema = { type: isWholeStep(input) ? 'integer' : 'number' };
  const minimum = numberAttribute(input, 'min');
  const maximum = numberAttribute(input, 'max');
  if (minimum !== undefined) schema.minimum = minimum;
  if (maximum !== undefined) schema.maximum = maximum;
  return schema;
}

/** No `step` (or a whole one) from a whole `min` only lands on whole numbers. */
function isWholeStep(input: HTMLInputElement): boolean {
  const step = input.getAttribute('step');
  if (step === 'any') return false;
  const stepValue = step === null || step === '' ? 1 : Number(step);
  const base = numberAttribute(input, 'min') ?? 0;
  return Number.isInteger(stepValue) && Number.isInteger(base);
}

function numberAttribute(input: HTMLInputElement, name: string): number | undefined {
  const raw = input.getAttribute(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}
