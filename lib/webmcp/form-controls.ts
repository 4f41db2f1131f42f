import { namedError } from '../messaging/named-error';

export type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const skippedInputTypes = new Set(['button', 'submit', 'reset', 'image', 'file']);

/** The input types where `readonly` applies; elsewhere (checkbox, range, color…) it means nothing. */
const readOnlyInputTypes = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);

/**
 * The form's named controls a person could change, grouped by name (radio groups share one).
 * Disabled ones (their own attribute or a disabled fieldset around them) and read-only ones are
 * left out, as Chrome does: the page fixed them, so the model may not change them.
 */
export function namedControls(form: HTMLFormElement): Map<string, FormControl[]> {
  const groups = new Map<string, FormControl[]>();
  for (const element of Array.from(form.elements)) {
    if (!isValueControl(element) || element.matches(':disabled') || isReadOnly(element)) continue;
    const name = element.name.trim();
    if (name === '') continue;
    if (element instanceof HTMLInputElement && element.type === 'hidden' && !element.hasAttribute('toolparamdescription')) continue;
    const group = groups.get(name);
    if (group) group.push(element);
    else groups.set(name, [element]);
  }
  return groups;
}

/** Controls a person could fill that have no name: the browser leaves them out of the tool, so no agent can fill them. */
function unnamedControls(form: HTMLFormElement): FormControl[] {
  return Array.from(form.elements).filter(
    (element): element is FormControl =>
      isValueControl(element) &&
      element.name.trim() === '' &&
      !element.matches(':disabled') &&
      !isReadOnly(element) &&
      !(element instanceof HTMLInputElement && element.type === 'hidden'),
  );
}

/** What the site author is told about a tool form's fields in the inspector (at most five notes). */
export function formFieldNotes(form: HTMLFormElement): string[] {
  return unnamedControls(form)
    .slice(0, 5)
    .map((control) =>
      control.required
        ? `The field ${controlLabel(control)} has no name: no agent can fill it, and it is required, so every call fails. Give it a name.`
        : `The field ${controlLabel(control)} has no name: no agent can fill it. Give it a name.`,
    );
}

/** A control as a person knows it: "Your name" (its label, aria-label or placeholder), else its id or kind. */
function controlLabel(control: FormControl): string {
  const words = labelsText(control) || control.getAttribute('aria-label')?.trim() || control.getAttribute('placeholder')?.trim();
  if (words) return `"${words.length > 60 ? `${words.slice(0, 59)}…` : words}"`;
  return control.id ? `#${control.id}` : `(a ${control instanceof HTMLInputElement ? `${control.type} input` : control.localName})`;
}

/** The error of a form that refuses its values, field by field: "email: Please include an '@'…". */
export function formRefused(form: HTMLFormElement): Error {
  const problems = Array.from(form.elements)
    .filter((element): element is FormControl => isValueControl(element) && element.willValidate && !element.validity.valid)
    .map((element) => `${element.name.trim() || `${controlLabel(element)}, a field without a name`}: ${element.validationMessage}${patternWanted(element)}`);
  return namedError('TypeError', `The form did not accept the values (${problems.join('; ')}).`);
}

/** Whether a call failed as the form refused its values (in `formRefused`'s words, or Chrome's), so that nothing was sent. */
export function refusedByForm(error: unknown): boolean {
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
  return /^(?:Form validation failed|The form did not accept the values)/.test(message);
}

/**
 * The format a field's `pattern` asks for, which the browser's words ("Please match the requested
 * format.") leave out and the model never saw (a schema given to it keeps no `pattern`), with the
 * page's own description of it in `title`, where it has one.
 */
function patternWanted(control: FormControl): string {
  if (!(control instanceof HTMLInputElement) || !control.validity.patternMismatch) return '';
  const title = control.title.trim();
  return ` It must match the pattern ${control.pattern}${title ? ` (${title.slice(0, 200)})` : ''}.`;
}

/** Input types of typed text: those whose `pattern`, `minlength` and `maxlength` count. */
export const typedTextTypes: ReadonlySet<string> = new Set(['text', 'search', 'url', 'tel', 'email', 'password']);

/**
 * A typed field's `maxlength` and `minlength` (none for a field a person does not type in, a date
 * or a colour, whose value is no free text); a `minlength` past the `maxlength`, which no value
 * meets, is left out.
 */
export function textLengths(control: FormControl | undefined): { maxLength?: number; minLength?: number } {
  if (!(control instanceof HTMLTextAreaElement) && !(control instanceof HTMLInputElement && typedTextTypes.has(control.type))) return {};
  const { maxLength, minLength } = control;
  const hasMax = maxLength >= 0;
  const hasMin = minLength > 0 && (!hasMax || minLength <= maxLength);
  return { ...(hasMax ? { maxLength } : {}), ...(hasMin ? { minLength } : {}) };
}

/** How a value of each input type is written, which the browser refuses in any other form. */
export const valueFormOf: Readonly<Record<string, string>> = {
  number: 'a number',
  date: 'a date as YYYY-MM-DD',
  month: 'a month as YYYY-MM',
  week: 'a week as YYYY-Www',
  time: 'a time as HH:MM',
  'datetime-local': 'a date and time as YYYY-MM-DDTHH:MM',
  color: 'a colour as #rrggbb',
};

function isValueControl(element: Element): element is FormControl {
  if (element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && !skippedInputTypes.has(element.type);
}

function isReadOnly(control: FormControl): boolean {
  if (control instanceof HTMLSelectElement) return false;
  return control.readOnly && (control instanceof HTMLTextAreaElement || readOnlyInputTypes.has(control.type));
}

/**
 * What a field holds: one line of text (any input but a checkbox or radio, or a textarea), one
 * choice (a select or radio group), several (a multiple select or checkbox group), or a yes/no (a
 * lone checkbox). Several controls of other kinds under one name are no field at all, as in Chrome.
 */
export type FieldKind = 'text' | 'choice' | 'choices' | 'flag';

export function fieldKind(controls: readonly FormControl[]): FieldKind | undefined {
  const first = controls[0];
  if (!first) return undefined;
  if (controls.length > 1) {
    if (controls.every((control) => isInputOfType(control, 'radio'))) return 'choice';
    if (controls.every((control) => isInputOfType(control, 'checkbox'))) return 'choices';
    return undefined;
  }
  if (first instanceof HTMLSelectElement) return first.multiple ? 'choices' : 'choice';
  if (isInputOfType(first, 'radio')) return 'choice';
  if (isInputOfType(first, 'checkbox')) return 'flag';
  return 'text';
}

function isInputOfType(control: FormControl, type: string): control is HTMLInputElement {
  return control instanceof HTMLInputElement && control.type === type;
}

/** One value a select, radio group or checkbox group offers, with the words the page shows for it. */
export interface Choice {
  value: string;
  title: string;
}

/** The values a choice field offers now, in the page's order. */
export function fieldChoices(controls: readonly FormControl[]): Choice[] {
  const first = controls[0];
  if (first instanceof HTMLSelectElement) {
    const options = Array.from(first.options).filter((option, index) => !(index === 0 && isPlaceholder(first, option)));
    return options.map((option) => ({ value: option.value, title: optionTitle(option) }));
  }
  return controls.map((control) => ({ value: control.value, title: labelsText(control) }));
}

/** Whether a field is a required select whose first option is its placeholder (see `isPlaceholder`). */
export function hasPlaceholderChoice(controls: readonly FormControl[]): boolean {
  const first = controls[0];
  const option = first instanceof HTMLSelectElement ? first.options[0] : undefined;
  return controls.length === 1 && option !== undefined && isPlaceholder(first as HTMLSelectElement, option);
}

/**
 * A required select's first option with an empty value ("Choose…") is no choice but its
 * placeholder, as HTML defines it: the form refuses it, so it is not offered.
 */
function isPlaceholder(select: HTMLSelectElement, option: HTMLOptionElement): boolean {
  const shownRows = Number(select.getAttribute('size')) || 1;
  return select.required && !select.multiple && shownRows <= 1 && option.value === '' && option.parentElement === select;
}

/** An option's `label` attribute, else its text (what the select shows). */
function optionTitle(option: HTMLOptionElement): string {
  return (option.getAttribute('label') || option.text).trim().replace(/\s+/g, ' ');
}

/**
 * A field's description: `toolparamdescription`, else its label's text, else its aria-label. A
 * group of radios or checkboxes takes the `toolparamdescription` of the fieldset around all of
 * them, else that fieldset's legend.
 */
export function controlDescription(controls: readonly FormControl[]): string | undefined {
  const first = controls[0];
  if (!first) return undefined;
  const own = first.getAttribute('toolparamdescription');
  if (own) return own;
  if (controls.length > 1) {
    const fieldset = commonFieldset(controls);
    const legend = Array.from(fieldset?.children ?? []).find((child) => child instanceof HTMLLegendElement);
    return fieldset?.getAttribute('toolparamdescription') || legend?.textContent?.trim().replace(/\s+/g, ' ') || undefined;
  }
  return labelsText(first) || first.getAttribute('aria-label') || undefined;
}

/** The nearest fieldset that holds every control of a group. */
function commonFieldset(controls: readonly FormControl[]): HTMLFieldSetElement | undefined {
  for (let element = controls[0]?.parentElement; element; element = element.parentElement) {
    if (element instanceof HTMLFieldSetElement && controls.every((control) => element.contains(control))) return element;
  }
  return undefined;
}

/** The words of a control's labels, joined. */
function labelsText(control: FormControl): string {
  return Array.from(control.labels ?? [])
    .map((element) => labelText(element))
    .filter(Boolean)
    .join('; ');
}

/** A label's own words, without the text of the controls inside it. */
function labelText(label: HTMLLabelElement): string {
  const copy = label.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('input, select, textarea, button').forEach((element) => element.remove());
  return copy.textContent?.trim().replace(/\s+/g, ' ') ?? '';
}
