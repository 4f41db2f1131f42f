import { controlDescription, fieldChoices, fieldKind, namedControls, typedTextTypes, type Choice, type FormControl } from './form-controls';
import { isNumberField, numberAttribute, numberSteps } from './number-steps';

type Schema = Record<string, unknown>;

/**
 * The input schema of a `<form toolname>`, as Chrome derives it: each named field becomes a
 * property (text with its `pattern`, number with min, max and its steps as `multipleOf`, boolean for a lone checkbox, a choice for a select or
 * radio group, a list of distinct choices for a multiple select or checkbox group); `required`
 * fields are required. Each choice keeps the words the page shows for it (`anyOf` with `const`
 * and `title`) next to the plain `enum`.
 */
export function formToolSchema(form: HTMLFormElement): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [name, controls] of namedControls(form)) {
    const schema = fieldSchema(controls);
    if (!schema) continue;
    const description = fieldDescription(controls);
    // defineProperty, not assignment: a field named "__proto__" must stay a property like any other.
    const value = description ? { ...schema, description } : schema;
    Object.defineProperty(properties, name, { value, enumerable: true, writable: true, configurable: true });
    if (controls.some((control) => control.required)) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function fieldSchema(controls: readonly FormControl[]): Schema | undefined {
  const kind = fieldKind(controls);
  const first = controls[0];
  if (!kind || !first) return undefined;
  if (kind === 'choice') return choiceSchema(fieldChoices(controls));
  if (kind === 'choices') return { type: 'array', items: choiceSchema(fieldChoices(controls)), uniqueItems: true };
  if (kind === 'flag') return { type: 'boolean' };
  if (isNumberField(first)) return numberSchema(first);
  if (first instanceof HTMLInputElement && first.type === 'date') return { type: 'string', format: 'date' };
  const pattern = first instanceof HTMLInputElement && typedTextTypes.has(first.type) ? first.getAttribute('pattern') : null;
  return { type: 'string', ...(pattern ? { pattern } : {}), ...textLengths(first) };
}

/**
 * A typed field's `maxlength` and `minlength` as JSON Schema's `maxLength` and `minLength`; none
 * for a field a person does not type in (a date, a colour), whose value is no free text.
 */
export function textLengths(control: FormControl | undefined): { maxLength?: number; minLength?: number } {
  if (!(control instanceof HTMLTextAreaElement) && !(control instanceof HTMLInputElement && typedTextTypes.has(control.type))) return {};
  const { maxLength, minLength } = control;
  return { ...(maxLength >= 0 ? { maxLength } : {}), ...(minLength > 0 ? { minLength } : {}) };
}

function choiceSchema(choices: readonly Choice[]): Schema {
  return {
    type: 'string',
    anyOf: choices.map(({ value, title }) => ({ type: 'string', const: value, ...(title ? { title } : {}) })),
    enum: choices.map(({ value }) => value),
  };
}

/**
 * A number field: its steps as Chrome writes them (`multipleOf`, 1 where it gives none, which the
 * prompt reads as a whole number), or said in its description where they do not count from 0.
 */
function numberSchema(input: HTMLInputElement): Schema {
  const { multipleOf } = numberSteps(input);
  const schema: Schema = { type: 'number', ...(multipleOf !== undefined ? { multipleOf } : {}) };
  const minimum = numberAttribute(input, 'min');
  const maximum = numberAttribute(input, 'max');
  if (minimum !== undefined) schema.minimum = minimum;
  if (maximum !== undefined) schema.maximum = maximum;
  return schema;
}

/**
 * A field's description: its own words (see `controlDescription`), after what the field takes that
 * the prompt's schema cannot say (see `withRuleWords`).
 */
export function fieldDescription(controls: readonly FormControl[]): string | undefined {
  return withRuleWords(controlDescription(controls), controls[0]);
}

/**
 * `description` with what the field takes in words, first, where the schema the model reads
 * cannot say it (the prompt keeps no `multipleOf` that counts from a `min`, no lengths, no
 * formats) and the description does not say it already: a number's steps ("in steps of 25 from
 * 10"), a text's length ("at most 40 characters"), a date's or a time's form ("a date, as
 * YYYY-MM-DD"). Else the model learns them only from the page's refusal, after the person allowed
 * the call, and asks them again.
 */
export function withRuleWords(description: string | undefined, control: FormControl | undefined): string | undefined {
  const words = [numberSteps(control).words, lengthWords(control), formatWords(control)].filter((said): said is string => said !== undefined && !description?.includes(said));
  if (words.length === 0) return description;
  // First, so that the 160 characters the prompt keeps of a description never cut them off.
  const rules = `(${words.join('; ')})`;
  return description ? `${rules} ${description}` : rules;
}

function lengthWords(control: FormControl | undefined): string | undefined {
  const { maxLength, minLength } = textLengths(control);
  const count = (value: number) => value.toLocaleString('en-US');
  if (maxLength !== undefined && minLength !== undefined) return `${count(minLength)} to ${count(maxLength)} characters`;
  if (maxLength !== undefined) return `at most ${count(maxLength)} ${maxLength === 1 ? 'character' : 'characters'}`;
  if (minLength !== undefined) return `at least ${count(minLength)} ${minLength === 1 ? 'character' : 'characters'}`;
  return undefined;
}

/** The form a date or time field's value takes, which the browser refuses in any other. */
const valueForms: Readonly<Record<string, string>> = {
  date: 'a date, as YYYY-MM-DD',
  time: 'a time, as HH:MM',
  'datetime-local': 'a date and time, as YYYY-MM-DDTHH:MM',
  month: 'a month, as YYYY-MM',
  week: 'a week, as YYYY-Www',
};

function formatWords(control: FormControl | undefined): string | undefined {
  return control instanceof HTMLInputElement ? valueForms[control.type] : undefined;
}
