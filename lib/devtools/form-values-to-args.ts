import { assertNever, isRecord } from '@webmcp-agents/chat';
import { sameJson } from '@webmcp-agents/local-agent';
import { typedColour, type FormField } from './schema-to-form';

/**
 * What the form's inputs hold: text for text, number, select (the option's index), a checkbox
 * group (the indexes of its checked options, as "0,2", or `noChoices`) and JSON; a flag for a
 * boolean; null where the schema allows it and the person chose it. "" is a field left empty, a
 * group with nothing checked, or a boolean left "not set".
 */
export type FieldValue = string | boolean | null;
export type FieldValues = Record<string, FieldValue>;

/** An optional group's "none": an empty list sent, where nothing checked leaves the field out. */
export const noChoices = 'none';

/** On failure, `field` names the field that holds the mistake. */
export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; message: string; field: string };

/**
 * The call's arguments from the form: empty optional fields (booleans not set, groups with nothing
 * checked) are left out, a required group with nothing checked is an empty list,
 * numbers are read as numbers (a non-number, such as "1e400", is passed on as text, for
 * `validateArgs` to name; text the browser cannot read as a number never gets here: it gives ""),
 * JSON is parsed. A required field left empty is sent as "" so `validateArgs` reports it as missing.
 */
export function formValuesToArgs(fields: readonly FormField[], values: FieldValues): ArgsResult {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const held = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    const value = held === undefined ? '' : held;
    if (field.kind === 'arguments') return readArguments(field, typeof value === 'string' ? value : '');
    if (value === null || typeof value === 'boolean') {
      setArgument(args, field.name, value);
      continue;
    }
    if (field.kind === 'choices') {
      const chosen = checkedOptions(field, value);
      if (chosen.length > 0 || field.required || value === noChoices) setArgument(args, field.name, chosen);
      continue;
    }
    const read = value.trim() === '' ? { ok: true as const, value: undefined } : readField(field, value);
    if (!read.ok) return read;
    if (read.value !== undefined) setArgument(args, field.name, read.value);
    else if (field.required) setArgument(args, field.name, '');
  }
  return { ok: true, args };
}

// A page's property may be called "__proto__": it must become a key, not the object's prototype.
function setArgument(args: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Where what was typed reads as words, not as a broken object or list: how JSON writes them where
 * the field takes them, text in double quotes, in a list where it takes a list (as its template
 * shows). Nothing for a field that takes an object.
 */
function unquotedText(text: string, template: string): string {
  // Single quotes are how many languages write text, not JSON: the words inside them.
  const typed = text.trim().replace(/^'(.*)'$/s, '$1');
  if (typed === '' || /^[[{"0-9-]/.test(typed) || template.startsWith('{')) return '';
  const quoted = JSON.stringify(typed.length > 40 ? `${typed.slice(0, 39)}…` : typed);
  return template.startsWith('[') ? `: a list is written in brackets, with text in double quotes, such as [${quoted}]` : `: text is written in double quotes, such as ${quoted}`;
}

function readField(field: FormField, text: string): { ok: true; value: unknown } | { ok: false; message: string; field: string } {
  switch (field.kind) {
    case 'number': {
      const value = Number(text);
      return { ok: true, value: Number.isFinite(value) ? value : text };
    }
    case 'select':
      // An index that names no option (there should be none) counts as nothing chosen.
      return { ok: true, value: field.options[Number(text)] };
    case 'choices':
      return { ok: true, value: checkedOptions(field, text) };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch {
        return { ok: false, message: `"${field.name}" is not valid JSON${unquotedText(text, field.template)}.`, field: field.name };
      }
    // Text as typed; a form's colour field takes a colour only (its input would make anything else black).
    // A boolean's value is a flag, not text, and readArguments reads the arguments editor: neither gets here.
    case 'text': {
      if (!field.colourPicker) return { ok: true, value: text };
      const colour = typedColour(text);
      return colour !== undefined
        ? { ok: true, value: colour }
        : { ok: false, message: `"${field.name}" is a colour: write it as # and six hexadecimal digits, such as #ff8800, or pick one.`, field: field.name };
    }
    case 'boolean':
    case 'arguments':
      return { ok: true, value: text };
    default:
      return assertNever(field);
  }
}

/** The options a group's value checks, in the order the group lists them. */
function checkedOptions(field: Extract<FormField, { kind: 'choices' }>, value: string): unknown[] {
  const checked = new Set(value === '' || value === noChoices ? [] : value.split(',').map(Number));
  return field.options.filter((_option, index) => checked.has(index));
}

/** A group's value with `options` checked: those the group offers. */
function checkedValue(field: Extract<FormField, { kind: 'choices' }>, options: readonly unknown[]): string {
  return field.options.flatMap((option, index) => (options.some((checked) => sameJson(checked, option)) ? [String(index)] : [])).join(',');
}

function readArguments(field: FormField, text: string): ArgsResult {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, message: 'The arguments are not valid JSON.', field: field.name };
  }
  if (!isRecord(value)) return { ok: false, message: 'The arguments must be a JSON object, such as {}.', field: field.name };
  return { ok: true, args: value };
}

/**
 * The values a fresh form starts with: empty; a boolean at the schema's default, else unchecked
 * when it must be sent, else not set; a required JSON editor prefilled with its template, an
 * optional one empty (it shows the template as a placeholder, and an empty one is left out).
 */
export function initialFieldValues(fields: readonly FormField[]): FieldValues {
  return Object.fromEntries(fields.map((field) => [field.name, initialValue(field)]));
}

function initialValue(field: FormField): FieldValue {
  switch (field.kind) {
    case 'boolean':
      if (field.default !== undefined) return field.default;
      return field.required && !field.nullable ? false : '';
    case 'json':
      // A template of null says nothing of the shape: sending it would make up a value.
      return field.required && field.template !== 'null' ? field.template : '';
    case 'arguments':
      return field.template;
    // A required field starts at the default its schema gives, the one value it suggests; an
    // optional one starts empty, left out of the call, and says the default the tool then takes.
    case 'text':
    case 'number':
      return field.required && field.default !== undefined ? String(field.default) : '';
    case 'select': {
      const index = field.required && field.default !== undefined ? field.options.findIndex((option) => sameJson(option, field.default)) : -1;
      return index === -1 ? '' : String(index);
    }
    case 'choices':
      return field.required && field.default !== undefined ? checkedValue(field, field.default) : '';
    default:
      return assertNever(field);
  }
}

/** The options checked in a group that the page no longer offers: the rest stay checked. */
export interface Unoffered {
  name: string;
  options: unknown[];
}

/**
 * The values of a form whose schema changed (the page registered the tool again, or a page with a
 * tool of the same name opened): a field that asks for the same as before keeps what the person
 * set, every other starts as in a fresh form. With them, the fields whose value the person set
 * that the new form does not keep (`lost`: gone from it, or asking for something else there), and
 * the checked options of a group the page no longer offers (`unoffered`), where others stay
 * checked. A field left as it started starts afresh.
 */
export function carryOverForm(before: readonly FormField[], values: FieldValues, after: readonly FormField[]): { values: FieldValues; lost: string[]; unoffered: Unoffered[] } {
  const fresh = initialFieldValues(after);
  const untouched = initialFieldValues(before);
  const asked = new Map(before.map((field) => [field.name, whatFieldAsks(field)]));
  const earlier = new Map(before.map((field) => [field.name, field]));
  const set = (name: string) => Object.hasOwn(values, name) && values[name] !== untouched[name];
  const kept = new Set<string>();
  const unoffered: Unoffered[] = [];
  const carried = after.map((field) => {
    if (!set(field.name)) return [field.name, fresh[field.name]!];
    const before = earlier.get(field.name);
    const value = values[field.name]!;
    const same = asked.get(field.name) === whatFieldAsks(field);
    const partly = same ? undefined : someChoices(before, value, field);
    if (partly) unoffered.push({ name: field.name, options: partly.gone });
    const chosen = same ? value : (partly?.value ?? sameChoice(before, value, field) ?? sameText(before, value, field));
    if (chosen !== undefined) kept.add(field.name);
    return [field.name, chosen ?? fresh[field.name]!];
  });
  return { values: Object.fromEntries(carried), lost: before.map((field) => field.name).filter((name) => set(name) && !kept.has(name)), unoffered };
}

/** A group's checked options where the page still offers some and not others: those it offers stay checked. */
function someChoices(before: FormField | undefined, value: FieldValue, after: FormField): { value: string; gone: unknown[] } | undefined {
  if (before?.kind !== 'choices' || after.kind !== 'choices' || typeof value !== 'string' || value === '' || value === noChoices) return undefined;
  const { chosen, found } = placesNow(before, value, after);
  const still = found.filter((index) => index !== -1);
  if (still.length === 0 || still.length === found.length) return undefined;
  return { value: still.sort((a, b) => a - b).join(','), gone: chosen.filter((_option, at) => found[at] === -1) };
}

/**
 * A choice made among options the page has since changed (one added, the list reordered): the same
 * options where they are all still offered, at their new places. A select's value is its option's
 * index, a checkbox group's the indexes of those checked.
 */
function sameChoice(before: FormField | undefined, value: FieldValue, after: FormField): FieldValue | undefined {
  if (before?.kind !== after.kind || (after.kind !== 'select' && after.kind !== 'choices') || typeof value !== 'string' || value === '') return undefined;
  if (before.kind !== 'select' && before.kind !== 'choices') return undefined;
  if (value === noChoices) return after.kind === 'choices' && !after.required ? noChoices : undefined;
  const { found } = placesNow(before, value, after);
  return found.includes(-1) ? undefined : found.sort((a, b) => a - b).join(',');
}

/** The options a select's or group's value chose, and the place of each among the options offered now (-1: gone). */
function placesNow(before: { options: unknown[] }, value: string, after: { options: unknown[] }): { chosen: unknown[]; found: number[] } {
  const chosen = value.split(',').map((index) => before.options[Number(index)]);
  return { chosen, found: chosen.map((option) => after.options.findIndex((candidate) => sameJson(candidate, option))) };
}

/**
 * What was entered in a text or number field, where the field it became takes it as it is: a
 * number as plain text, text that reads as a number (a whole one for an integer).
 */
function sameText(before: FormField | undefined, value: FieldValue, after: FormField): FieldValue | undefined {
  if (typeof value !== 'string' || value.trim() === '' || (before?.kind !== 'text' && before?.kind !== 'number')) return undefined;
  if (after.kind === 'text') return after.inputType === undefined ? value : undefined;
  if (after.kind !== 'number') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && (!after.integer || Number.isInteger(number)) ? value : undefined;
}

// A page may reword a description as it goes ("3 items in cart"), or move a number's bounds, steps
// or default, or how many of its choices a list takes: that leaves the value as good as before
// (the check at Run reads the new ones).
function whatFieldAsks(field: FormField): string {
  const { description: _description, ...asked } = field;
  if (asked.kind === 'choices') {
    const { minItems: _fewest, maxItems: _most, default: _default, ...kind } = asked;
    return JSON.stringify(kind);
  }
  if (asked.kind !== 'number') return JSON.stringify(asked);
  const { minimum: _minimum, maximum: _maximum, step: _step, default: _default, ...kind } = asked;
  return JSON.stringify(kind);
}

/** The field a problem from `validateArgs` is about ('Missing required argument "x".', '"x" must be …'). */
export function fieldNamedIn(message: string, fields: readonly Pick<FormField, 'name'>[]): string | undefined {
  return fields.find((field) => {
    const quoted = JSON.stringify(field.name);
    return message === `Missing required argument ${quoted}.` || message.startsWith(`${quoted} `);
  })?.name;
}
