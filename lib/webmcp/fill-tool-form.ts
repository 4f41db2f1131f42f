import { flagValue, plainText, valueProblem } from './check-form-value';
import { announce, clearEarlierCall, rememberCall } from './earlier-call-fields';
import { fieldKind, namedControls, type FormControl } from './form-controls';
import { namedError } from '../messaging/named-error';

/**
 * Puts a call's arguments into a `<form toolname>` as a person would type them, firing `input`
 * and `change` so the page's own scripts follow. Every value is checked against what the form
 * offers first: on an unknown field or a value the form does not take, it throws one readable
 * error naming each such field and what it takes, and the form is left as it was. Answers how to
 * put the form back as it was, for a submit the form then refuses.
 */
export function fillToolForm(form: HTMLFormElement, args: Record<string, unknown>): { undo(): void } {
  const groups = namedControls(form);
  const problems = Object.entries(args)
    .map(([name, value]) => valueProblem(name, groups.get(name) ?? [], value))
    .filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    const unknown = Object.keys(args).some((name) => !fieldKind(groups.get(name) ?? []));
    const fields = [...groups.keys()].filter((name) => fieldKind(groups.get(name) ?? []));
    if (unknown) problems.push(fields.length > 0 ? `Its fields are ${fields.map((name) => JSON.stringify(name)).join(', ')}.` : 'It has no fields.');
    throw namedError('TypeError', problems.join(' '));
  }
  const earlier = clearEarlierCall(form, args, groups);
  try {
    for (const [name, value] of Object.entries(args)) fillField(groups.get(name) ?? [], value);
  } finally {
    rememberCall(form, earlier.before, groups);
  }
  return earlier;
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
