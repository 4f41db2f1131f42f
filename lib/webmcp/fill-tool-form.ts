import { flagValue, plainText, valueProblem } from './check-form-value';
import { fieldKind, namedControls, type FormControl } from './form-controls';

/**
 * Puts a call's arguments into a `<form toolname>` as a person would type them, firing `input`
 * and `change` so the page's own scripts follow. Every value is checked against what the form
 * offers first: on an unknown field or a value the form does not take, it throws one readable
 * error naming each such field and what it takes, and the form is left as it was.
 */
export function fillToolForm(form: HTMLFormElement, args: Record<string, unknown>): void {
  const groups = namedControls(form);
  const problems = Object.entries(args)
    .map(([name, value]) => valueProblem(name, groups.get(name) ?? [], value))
    .filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    const unknown = Object.keys(args).some((name) => !fieldKind(groups.get(name) ?? []));
    const fields = [...groups.keys()].filter((name) => fieldKind(groups.get(name) ?? []));
    if (unknown) problems.push(fields.length > 0 ? `Its fields are ${fields.map((name) => JSON.stringify(name)).join(', ')}.` : 'It has no fields.');
    throw Object.assign(new Error(problems.join(' ')), { name: 'TypeError' });
  }
  restoreUnnamedFields(form, args, groups);
  for (const [name, value] of Object.entries(args)) fillField(groups.get(name) ?? [], value);
}

/**
 * Puts each field of `form` that the call's `args` do not name back to the page's own default:
 * what an earlier call put there must not be sent again, unseen by the person who approved this
 * one. Chrome's own filling of a form leaves them as they were, so the extension does this before
 * either fills it.
 */
export function restoreUnnamedFields(form: HTMLFormElement, args: Record<string, unknown>, groups = namedControls(form)): void {
  for (const [name, controls] of groups) {
    if (!Object.hasOwn(args, name) && fieldKind(controls)) restoreDefault(controls);
  }
}

/** Puts a field back as the page wrote it, announcing only the controls that change. */
function restoreDefault(controls: readonly FormControl[]): void {
  for (const control of controls) {
    if (control instanceof HTMLSelectElement) {
      const before = Array.from(control.options, (option) => option.selected).join();
      const defaults = Array.from(control.options, (option) => option.defaultSelected);
      if (!control.multiple && !defaults.includes(true)) control.selectedIndex = control.options.length > 0 ? 0 : -1;
      else Array.from(control.options).forEach((option, index) => (option.selected = defaults[index]!));
      if (Array.from(control.options, (option) => option.selected).join() !== before) announce(control);
    } else if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
      if (control.checked === control.defaultChecked) continue;
      control.checked = control.defaultChecked;
      announce(control);
    } else if (control.value !== control.defaultValue) {
      control.value = control.defaultValue;
      announce(control);
    }
  }
}

/** Fills one field with a value `valueProblem` took. */
function fillField(controls: readonly FormControl[], value: unknown): void {
  const kind = fieldKind(controls);
  const first = controls[0];
  if (!first) return;
  if (first instanceof HTMLSelectElement) {
    if (kind === 'choices') {
      const chosen = new Set((value as unknown[]).map(plainText));
      for (const option of Array.from(first.options)) option.selected = chosen.has(option.value);
    } else first.value = plainText(value) ?? '';
    announce(first);
    return;
  }
  if (kind === 'text') {
    first.value = plainText(value) ?? '';
    announce(first);
    return;
  }
  // Checkboxes and radios: only the boxes that change are announced, as when a person clicks.
  const chosen = kind === 'choices' ? new Set((value as unknown[]).map(plainText)) : new Set([plainText(value)]);
  for (const control of controls as HTMLInputElement[]) {
    const checked = kind === 'flag' ? flagValue(value) === true : chosen.has(control.value);
    // The browser unchecks the rest of a radio group itself.
    if (control.checked === checked || (kind === 'choice' && !checked)) continue;
    control.checked = checked;
    announce(control);
  }
}

function announce(control: FormControl): void {
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}
