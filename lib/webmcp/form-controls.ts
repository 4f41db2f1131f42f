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

function isValueControl(element: Element): element is FormControl {
  if (element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && !skippedInputTypes.has(element.type);
}

function isReadOnly(control: FormControl): boolean {
  if (control instanceof HTMLSelectElement) return false;
  return control.readOnly && (control instanceof HTMLTextAreaElement || readOnlyInputTypes.has(control.type));
}

/** A field's description: `toolparamdescription`, else its label's text, else its aria-label. */
export function controlDescription(controls: readonly FormControl[]): string | undefined {
  const first = controls[0];
  if (!first) return undefined;
  const own = first.getAttribute('toolparamdescription');
  if (own) return own;
  if (controls.length > 1) return first.closest('fieldset')?.querySelector('legend')?.textContent?.trim() || undefined;
  const label = Array.from(first.labels ?? [])
    .map((element) => labelText(element))
    .filter(Boolean)
    .join('; ');
  return label || first.getAttribute('aria-label') || undefined;
}

/** A label's own words, without the text of the controls inside it. */
function labelText(label: HTMLLabelElement): string {
  const copy = label.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('input, select, textarea, button').forEach((element) => element.remove());
  return copy.textContent?.trim().replace(/\s+/g, ' ') ?? '';
}
