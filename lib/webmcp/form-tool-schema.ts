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
  return pattern ? { type: 'string', pattern } : { type: 'string' };
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
 * A field's description: its own words (see `controlDescription`), and for a number field whose
 * steps no `multipleOf` can say (they count from its `min`), those steps.
 */
export function fieldDescription(controls: readonly FormControl[]): string | undefined {
  return withStepWords(controlDescription(controls), controls[0]);
}

/** `description` with a number field's steps in words, first, where it needs them and does not say them already. */
export function withStepWords(description: string | undefined, control: FormControl | undefined): string | undefined {
  const { words } = numberSteps(control);
  if (!words || description?.includes(words)) return description;
  // First, so that the 160 characters the prompt keeps of a description never cut them off.
  return description ? `(${words}) ${description}` : `(${words})`;
}
