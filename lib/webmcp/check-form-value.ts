import { figure, plural } from '../text/plural';
import { fieldChoices, fieldKind, namedControls, textLengths, valueFormOf, type Choice, type FormControl } from './form-controls';

/** Choices named in a refusal; a long list (countries) is cut, the model still sees the schema. */
const choicesShown = 30;

/**
 * Why `value` cannot go into a field, or undefined when it can: a choice must be one of the
 * values the form offers now, a list must hold distinct offered values, a lone checkbox takes
 * true or false (also "true"/"false" and 0/1), and any other input a value an input of its type
 * keeps. Chrome refuses such a call too, before it changes anything.
 */
export function valueProblem(name: string, controls: readonly FormControl[], value: unknown): string | undefined {
  const kind = fieldKind(controls);
  const first = controls[0];
  if (!kind || !first) return `The form has no field named ${quote(name)}.`;
  if (kind === 'flag') return flagValue(value) === undefined ? `${quote(name)} must be true or false, not ${quote(value)}.` : undefined;
  const choices = kind === 'text' ? [] : fieldChoices(controls);
  if (kind === 'choice') {
    const text = plainText(value);
    if (text !== undefined && choices.some((choice) => choice.value === text)) return undefined;
    return `${quote(name)} must be one of ${listChoices(choices)}, not ${quote(value)}.`;
  }
  if (kind === 'choices') {
    const texts = Array.isArray(value) ? value.map(plainText) : [];
    const offered = new Set(choices.map((choice) => choice.value));
    const fits = Array.isArray(value) && texts.every((text) => text !== undefined && offered.has(text)) && new Set(texts).size === texts.length;
    return fits ? undefined : `${quote(name)} must be a list of distinct values from ${listChoices(choices)}, not ${quote(value)}.`;
  }
  const text = plainText(value);
  if (text === undefined || !keeps(first, text)) return `${quote(name)} must be ${describeInput(first)}, not ${quote(value)}.`;
  return lengthProblem(name, first, text);
}

/**
 * What the browser's own WebMCP lets through as it fills a form by script: values too long or too
 * short for its typed fields (see `lengthProblem`), and a slider's value the browser moves to its
 * nearest step or bound (50 sent as 51, 150 as 100) without a word.
 */
export function problemsTheBrowserMisses(form: HTMLFormElement, args: Record<string, unknown>): string[] {
  const fields = namedControls(form);
  return Object.entries(args).flatMap(([name, value]) => {
    const [first] = fields.get(name) ?? [];
    const text = plainText(value);
    if (fieldKind(fields.get(name) ?? []) !== 'text' || !first || text === undefined) return [];
    if (first instanceof HTMLInputElement && first.type === 'range') return keeps(first, text) ? [] : `${quote(name)} must be ${describeInput(first)}, not ${quote(value)}.`;
    return lengthProblem(name, first, text) ?? [];
  });
}

/**
 * Why `text` is too long or too short for the field's `maxlength` or `minlength`: the browser
 * checks those only against what a person typed, never a value a script set, so the page would
 * get a value no person could have sent. An empty value is the `required` check's to refuse.
 */
function lengthProblem(name: string, control: FormControl, text: string): string | undefined {
  // Counted as the browser counts them, in UTF-16 code units.
  const { maxLength, minLength } = textLengths(control);
  if (maxLength !== undefined && text.length > maxLength) return `${quote(name)} must be at most ${plural(maxLength, 'character')}, not ${figure(text.length)} (${quote(text)}).`;
  if (minLength !== undefined && text !== '' && text.length < minLength) return `${quote(name)} must be at least ${plural(minLength, 'character')}, not ${figure(text.length)} (${quote(text)}).`;
  return undefined;
}

/** A lone checkbox's state from a value, or undefined when the value is no yes/no. */
export function flagValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || (typeof value === 'string' && value.toLowerCase() === 'true')) return true;
  if (value === 0 || value === '0' || (typeof value === 'string' && value.toLowerCase() === 'false')) return false;
  return undefined;
}

/** A string, number or boolean as the text a form holds; anything else is no field's value. */
export function plainText(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Whether an input of this control's type (and range limits) keeps `text` as its value: the
 * browser empties a number, date or time it cannot read, and puts a default in a range or colour.
 */
function keeps(control: FormControl, text: string): boolean {
  if (!(control instanceof HTMLInputElement)) return true;
  const type = control.type;
  if (type === 'range' || type === 'color') {
    const probe = control.ownerDocument.createElement('input');
    for (const attribute of ['min', 'max', 'step']) {
      const limit = control.getAttribute(attribute);
      if (limit !== null) probe.setAttribute(attribute, limit);
    }
    probe.type = type;
    probe.value = text;
    return type === 'color' ? probe.value === text.toLowerCase() : text.trim() !== '' && Number(probe.value) === Number(text);
  }
  if (text === '') return true;
  const probe = control.ownerDocument.createElement('input');
  probe.type = type;
  probe.value = text;
  return probe.value !== '';
}

function describeInput(control: FormControl): string {
  if (!(control instanceof HTMLInputElement)) return 'text';
  if (control.type !== 'range') return valueFormOf[control.type] ?? 'text';
  const min = control.getAttribute('min') ?? '0';
  const max = control.getAttribute('max') ?? '100';
  const step = control.getAttribute('step');
  return `a number from ${min} to ${max}${step && step !== 'any' ? ` in steps of ${step}` : ''}`;
}

function listChoices(choices: readonly Choice[]): string {
  if (choices.length === 0) return 'nothing (the form offers no choice now)';
  const shown = choices.slice(0, choicesShown).map(({ value, title }) => (title && title !== value ? `${quote(value)} (${title})` : quote(value)));
  const more = choices.length - shown.length;
  return shown.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
