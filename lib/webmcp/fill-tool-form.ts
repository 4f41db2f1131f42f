import { namedControls, type FormControl } from './form-controls';

/**
 * Puts a call's arguments into a `<form toolname>` as a person would type them, firing `input`
 * and `change` so the page's own scripts follow. Throws a readable error for an unknown field.
 */
export function fillToolForm(form: HTMLFormElement, args: Record<string, unknown>): void {
  const groups = namedControls(form);
  for (const name of Object.keys(args)) {
    if (!groups.has(name)) throw Object.assign(new Error(`The form has no field named "${name}".`), { name: 'TypeError' });
  }
  for (const [name, value] of Object.entries(args)) fillField(groups.get(name) ?? [], value);
}

function fillField(controls: readonly FormControl[], value: unknown): void {
  const first = controls[0];
  if (!first) return;
  if (first instanceof HTMLInputElement && (first.type === 'checkbox' || first.type === 'radio')) {
    const chosen = new Set((Array.isArray(value) ? value : [value]).map((item) => String(item)));
    for (const control of controls as HTMLInputElement[]) {
      const checked = controls.length === 1 && first.type === 'checkbox' ? value === true || value === 'true' : chosen.has(control.value);
      if (control.checked !== checked) {
        control.checked = checked;
        announce(control);
      }
    }
    return;
  }
  if (first instanceof HTMLSelectElement && first.multiple) {
    const chosen = new Set((Array.isArray(value) ? value : [value]).map((item) => String(item)));
    for (const option of Array.from(first.options)) option.selected = chosen.has(option.value);
    announce(first);
    return;
  }
  first.value = value === null || value === undefined ? '' : String(value);
  announce(first);
}

function announce(control: FormControl): void {
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}
