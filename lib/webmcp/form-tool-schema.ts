import { controlDescription, fieldChoices, fieldKind, namedControls, textLengths, typedTextTypes, valueFormOf, type Choice, type FormControl } from './form-controls';
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
 * cannot say it (the prompt keeps no `multipleOf` that counts from a `min`, no lengths, and says a
 * `format` only by its name) and the description does not say it already: a number's steps ("in
 * steps of 25 from 10"), a text's length ("at most 40 characters"; "if given" where it may be left
 * empty), a time's or a colour's form ("a time as HH:MM"; not a date's, whose `format: date` says it). Else the
 * model learns them only from the page's refusal, after the person allowed the call, and asks them
 * again.
 */
export function withRuleWords(description: string | undefined, control: FormControl | undefined): string | undefined {
  const words = [numberSteps(control).words, lengthWords(control), formWords(control)].filter((said): said is string => said !== undefined && !description?.includes(said));
  if (words.length === 0) return description;
  // First, so that the 160 characters the prompt keeps of a description never cut them off.
  const rules = `(${words.join('; ')})`;
  return description ? `${rules} ${description}` : rules;
}

function lengthWords(control: FormControl | undefined): string | undefined {
  const { maxLength, minLength } = textLengths(control);
  const count = (value: number) => `${value.toLocaleString('en-US')} ${value === 1 ? 'character' : 'characters'}`;
  // JSON Schema's `minLength` refuses "", which the form takes in a field it does not require.
  const ifGiven = minLength !== undefined && !control?.required ? 'if given, ' : '';
  if (maxLength !== undefined && minLength !== undefined) return `${ifGiven}${minLength.toLocaleString('en-US')} to ${count(maxLength)}`;
  if (maxLength !== undefined) return `at most ${count(maxLength)}`;
  if (minLength !== undefined) return `${ifGiven}at least ${count(minLength)}`;
  return undefined;
}

/** The input types whose form JSON Schema's `format` says as the browser takes it: said by its name already. */
const formatSaysIt = new Set(['date', 'number']);

/** A time's, a week's or a colour's form in words, where the field has one to say. */
export function formWords(control: FormControl | undefined): string | undefined {
  return control instanceof HTMLInputElement && !formatSaysIt.has(control.type) ? valueFormOf[control.type] : undefined;
}
