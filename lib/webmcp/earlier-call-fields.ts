// What a form's earlier calls left in it, kept apart from filling it: each call is sent what it shows.
import { fieldKind, namedControls, type FormControl } from './form-controls';

/** For each form, the fields calls filled, as the last call that named each left it. */
const filledByCalls = new WeakMap<HTMLFormElement, Map<string, string>>();
/** For each form, how many calls have begun: only the latest may put the form back. */
const callsBegun = new WeakMap<HTMLFormElement, number>();
/** For each form, how many calls are filling it now (begun, not yet remembered). */
const callsFilling = new WeakMap<HTMLFormElement, number>();
/** The documents whose people's input is watched (see `watchPersonInput`). */
const watchedDocuments = new WeakSet<Document>();

/** A field's controls as they are now: values, ticks and chosen options. */
type FieldStates = Map<string, string>;

/**
 * Before a call of `form`: every field an earlier call filled, that this one does not name and
 * that still holds what that call left, goes back to the page's own default, so that the call
 * sends what the person approved and no more. A field the person (or the page) changed since is
 * theirs, and stays; so does every field no call filled. Answers the named fields' states before
 * the call (for `rememberCall`), and `undo`, which puts the form back as it was before the call,
 * for a call the form then refused (nothing was sent); a later call begun meanwhile makes it do nothing.
 */
export function clearEarlierCall(form: HTMLFormElement, args: Record<string, unknown>, groups = namedControls(form)): { undo(): void; before: FieldStates } {
  const call = (callsBegun.get(form) ?? 0) + 1;
  callsBegun.set(form, call);
  callsFilling.set(form, (callsFilling.get(form) ?? 0) + 1);
  watchPersonInput(form.ownerDocument);
  const filled = filledByCalls.get(form) ?? new Map<string, string>();
  const cleared: Array<[name: string, controls: readonly FormControl[], state: string]> = [];
  for (const [name, left] of filled) {
    if (Object.hasOwn(args, name)) continue;
    const controls = groups.get(name) ?? [];
    filled.delete(name);
    if (!fieldKind(controls) || fieldState(controls) !== left) continue;
    cleared.push([name, controls, left]);
    restoreDefault(controls);
  }
  const before: FieldStates = new Map(Object.keys(args).flatMap((name) => (groups.has(name) ? [[name, fieldState(groups.get(name)!)]] : [])));
  return {
    before,
    undo() {
      if (callsBegun.get(form) !== call) return;
      for (const [name, state] of before) putState(groups.get(name) ?? [], state);
      for (const [name, controls, state] of cleared) {
        putState(controls, state);
        filled.set(name, state);
      }
      filledByCalls.set(form, filled);
    },
  };
}

/**
 * After a call of `form`, sent or refused: the fields it named that it changed (from `before`, as
 * `clearEarlierCall` found them) are the call's, to be cleared by a later call that leaves them out.
 */
export function rememberCall(form: HTMLFormElement, before: FieldStates, groups = namedControls(form)): void {
  callsFilling.set(form, Math.max(0, (callsFilling.get(form) ?? 0) - 1));
  const filled = filledByCalls.get(form) ?? new Map<string, string>();
  for (const [name, state] of before) {
    const controls = groups.get(name);
    if (!controls) continue;
    const now = fieldState(controls);
    if (now !== state || filled.has(name)) filled.set(name, now);
  }
  filledByCalls.set(form, filled);
}

/**
 * A field the person changes (typing, a click, the browser's autofill: an input the browser itself
 * tells of) is theirs from then on, whatever it holds, even what a call had put there. While a call
 * fills a form, what the browser tells of it is the call's (Chrome's WebMCP fills it so).
 */
function watchPersonInput(document: Document): void {
  if (watchedDocuments.has(document)) return;
  watchedDocuments.add(document);
  const onInput = (event: Event): void => {
    // The field itself, in an open shadow root too (the event is told at the document as from its host).
    const control = event.composedPath()[0];
    if (!event.isTrusted || !(control instanceof HTMLInputElement || control instanceof HTMLSelectElement || control instanceof HTMLTextAreaElement)) return;
    const form = control.form;
    if (form && !callsFilling.get(form)) filledByCalls.get(form)?.delete(control.name);
  };
  // Captured at the document: a page script that stops the event does not hide it, and a field outside its form (`form=`) is heard too.
  document.addEventListener('input', onInput, { capture: true });
  document.addEventListener('change', onInput, { capture: true });
}

function fieldState(controls: readonly FormControl[]): string {
  return JSON.stringify(controls.map(controlState));
}

/** A control's state by what it holds: a select's chosen values, a box's value and tick, a field's text. */
function controlState(control: FormControl): unknown {
  if (control instanceof HTMLSelectElement) return Array.from(control.options).filter((option) => option.selected).map((option) => option.value);
  if (isBox(control)) return [control.value, control.checked];
  return control.value;
}

/** Puts a field's controls back as `fieldState` wrote them, announcing those that change. */
function putState(controls: readonly FormControl[], state: string): void {
  const states = JSON.parse(state) as unknown[];
  controls.forEach((control, index) => {
    const wanted = states[index];
    if (JSON.stringify(controlState(control)) === JSON.stringify(wanted)) return;
    if (control instanceof HTMLSelectElement) {
      const chosen = new Set(wanted as string[]);
      for (const option of Array.from(control.options)) option.selected = chosen.has(option.value);
    } else if (isBox(control)) control.checked = (wanted as [string, boolean])[1];
    else control.value = String(wanted);
    announce(control);
  });
}

function isBox(control: FormControl): control is HTMLInputElement {
  return control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');
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
    } else if (isBox(control)) {
      if (control.checked === control.defaultChecked) continue;
      control.checked = control.defaultChecked;
      announce(control);
    } else if (control.value !== control.defaultValue) {
      control.value = control.defaultValue;
      announce(control);
    }
  }
}

/** Tells the page's scripts a control changed, as a person's input does. */
export function announce(control: FormControl): void {
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}
