import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { sameJson } from '@webmcp-agents/local-agent';
import { choiceTitles } from '../registry/fold-choice-titles';
import { plainSchema } from '../registry/plain-schema';
import { isJsonSchemaType } from './json-schema-types';
import { followBranches, isNullSchema, jsonTemplate } from './json-template';

interface FieldBase {
  name: string;
  required: boolean;
  description?: string;
}

/** One input of the run form, derived from one property of the tool's input schema. */
export type FormField =
  | (FieldBase & { kind: 'text'; nullable?: true; default?: string; inputType?: TextInputType; example?: string; colourPicker?: true })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; step?: number; nullable?: true; default?: number })
  | (FieldBase & { kind: 'boolean'; nullable?: true; default?: boolean | null })
  | (FieldBase & { kind: 'select'; options: unknown[]; titles?: Array<string | undefined>; default?: unknown })
  | (FieldBase & { kind: 'choices'; options: unknown[]; titles?: Array<string | undefined>; default?: unknown[]; minItems?: number; maxItems?: number })
  | (FieldBase & { kind: 'json'; template: string; note?: string })
  | (FieldBase & { kind: 'arguments'; template: string });

/** The browser's own input for a string `format` it can check as the person types. */
type TextInputType = 'date' | 'time' | 'email' | 'url' | 'datetime-local' | 'month' | 'week';
const inputTypes: Record<string, TextInputType> = { date: 'date', time: 'time', email: 'email', uri: 'url', url: 'url' };

/**
 * Chrome describes a form's `datetime-local`, `time`, `month` and `week` fields by a regular
 * expression in `format`, exactly these (Chromium 156). Only they are taken for such a field: a
 * page's own pattern is never run here (one written to backtrack could hold the panel for minutes),
 * and one that only looks like a date (an ISBN's digits and dashes) stays a text box.
 */
const chromeFormats: Record<string, TextInputType> = {
  '^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$': 'datetime-local',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': 'time',
  '^[0-9]{4}-(0[1-9]|1[0-2])$': 'month',
  '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$': 'week',
};

/** Chrome's pattern for a form's colour field. A colour input cannot be left empty: the field stays text, with a picker beside it. */
const chromeColourFormat = '^#[0-9a-zA-Z]{6}$';

/**
 * The colour typed in a colour field's box, without spaces around it, where it is one a colour input
 * keeps (`#` and six hexadecimal digits; it makes anything else black), else nothing.
 */
export function typedColour(text: string): string | undefined {
  const colour = text.trim();
  return /^#[0-9a-f]{6}$/i.test(colour) ? colour : undefined;
}

/** The name of the one field a form has when it takes the whole arguments object as JSON. */
const argumentsFieldName = 'arguments';

/**
 * The run form of a tool: text, number and integer (with min and max), boolean, an enum (or a
 * `const`) as a select, a list of such choices as a group of checkboxes, and a JSON editor with a template from the schema for nested objects,
 * arrays, unions of types and anything else. "X or null" is X with a way to send null. The fields
 * are those of the schema the agent reads (see `formSchema`). A root the fields cannot show
 * (alternatives, or a map of keys the schema does not name) gives one JSON editor for the whole
 * arguments object. A schema with no properties gives no fields, but for the names it requires.
 */
export function schemaToForm(schema: JSONSchema): FormField[] {
  const plain = formSchema(schema);
  if (takesRawArguments(schema, plain)) {
    return [
      {
        name: argumentsFieldName,
        required: true,
        description: 'The whole arguments object, as JSON: this schema is more than a form can show.',
        kind: 'arguments',
        template: JSON.stringify(jsonTemplate(schema) ?? {}, null, 2),
      },
    ];
  }
  const properties = isRecord(plain.properties) ? plain.properties : {};
  const required = new Set(Array.isArray(plain.required) ? plain.required.filter((key) => typeof key === 'string') : []);
  // A JSON editor starts from the page's own property: the merged one the agent reads may satisfy none of its alternatives.
  const own = isRecord(schema.properties) ? schema.properties : {};
  const declared = Object.entries(properties).map(([name, property]) => {
    const template = () => (Object.hasOwn(own, name) && isRecord(own[name]) ? jsonTemplate(own[name], schema) : jsonTemplate(property));
    return withTitles(fieldFor(name, property, required.has(name), template), Object.hasOwn(own, name) ? own[name] : undefined);
  });
  // A name `required` lists that no property describes: the agent's check asks for it all the same,
  // so without a field of its own the tool could never be run from here.
  const undeclared = [...required].filter((name) => !Object.hasOwn(properties, name)).map(undeclaredField);
  return [...declared, ...undeclared];
}

/**
 * A select's choices as the page shows them (a `<select>`'s or a radio group's labels), where its
 * schema gives them: a title for each option that has one other than its value.
 */
function withTitles(field: FormField, pageProperty: unknown): FormField {
  if (field.kind !== 'select' && field.kind !== 'choices') return field;
  const titled = choiceTitles(field.kind === 'choices' && isRecord(pageProperty) ? pageProperty.items : pageProperty);
  if (!titled) return field;
  const titles = field.options.map((option) => titled.find(({ value, title }) => sameJson(value, option) && title !== String(value))?.title);
  return { ...field, titles };
}

function undeclaredField(name: string): FormField {
  return { name, required: true, kind: 'json', template: 'null', note: 'The schema requires it but does not describe it: write its value as JSON.' };
}

/**
 * The schema the form's arguments are checked against: the one the agent checks a model's call
 * against (see `plainSchema`: references written out, `allOf` merged, `const` a one-value enum),
 * with the page's own descriptions, so the form and the agent refuse the same calls.
 */
export function formSchema(schema: JSONSchema): JSONSchema {
  try {
    const plain = plainSchema(schema, { notes: false });
    return isRecord(plain) ? plain : schema;
  } catch {
    // As for the agent: an odd schema is taken as given.
    return schema;
  }
}

/** The page's root has alternatives (`oneOf`, `anyOf`: the agent reads them merged), or is a map of keys it does not name. */
function takesRawArguments(schema: JSONSchema, plain: JSONSchema): boolean {
  if (['oneOf', 'anyOf'].some((key) => Array.isArray(schema[key]))) return true;
  if (isRecord(plain.properties)) return false;
  return plain.additionalProperties === true || isRecord(plain.additionalProperties) || isRecord(plain.patternProperties);
}

function fieldFor(name: string, property: unknown, required: boolean, template: () => unknown): FormField {
  const { node, type, nullable } = singleType(isRecord(property) ? property : {});
  const base: FieldBase = {
    name,
    required,
    ...(typeof node.description === 'string' && node.description !== '' ? { description: node.description } : {}),
  };
  const orNull = nullable ? { nullable: true as const } : {};
  // Its options are all it may be: "X or null" lists null where null is one of them.
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    return { ...base, kind: 'select', options: node.enum, ...(node.default !== undefined ? { default: node.default } : {}) };
  }
  if (type === 'string') {
    const inputType = typeof node.format === 'string' ? inputTypeFor(node.format) : undefined;
    // No browser input writes a date-time with its zone: the box shows the shape.
    const example = node.format === 'date-time' ? { example: '2026-12-24T18:30:00Z' } : {};
    const picker = node.format === chromeColourFormat ? { colourPicker: true as const } : {};
    return { ...base, kind: 'text', ...orNull, ...(typeof node.default === 'string' ? { default: node.default } : {}), ...(inputType ? { inputType } : {}), ...example, ...picker };
  }
  if (type === 'boolean') {
    const fallback = typeof node.default === 'boolean' || (nullable && node.default === null) ? { default: node.default as boolean | null } : {};
    return { ...base, kind: 'boolean', ...orNull, ...fallback };
  }
  if (type === 'number' || type === 'integer') {
    return {
      ...base,
      kind: 'number',
      integer: type === 'integer',
      ...(typeof node.minimum === 'number' ? { minimum: node.minimum } : {}),
      ...(typeof node.maximum === 'number' ? { maximum: node.maximum } : {}),
      ...spinnerSteps(node, type === 'integer'),
      ...orNull,
      ...(typeof node.default === 'number' ? { default: node.default } : {}),
    };
  }
  const choices = type === 'array' && !nullable ? listChoices(node) : undefined;
  if (choices) {
    const bounds = {
      ...(typeof node.minItems === 'number' ? { minItems: node.minItems } : {}),
      ...(typeof node.maxItems === 'number' ? { maxItems: node.maxItems } : {}),
    };
    return { ...base, kind: 'choices', options: choices, ...bounds, ...(Array.isArray(node.default) ? { default: node.default } : {}) };
  }
  // A misspelt type gets an editor like any schema the form cannot show: say why, or it looks like a bug here.
  const note = type !== undefined && !isJsonSchemaType(type) ? { note: `"${type}" is not a JSON Schema type, so the form cannot tell what to ask: write the value as JSON.` } : {};
  return { ...base, kind: 'json', template: JSON.stringify(template(), null, 2), ...note };
}

/** The input for a named `format`, or for one of the patterns Chrome writes for a form's fields. */
function inputTypeFor(format: string): TextInputType | undefined {
  if (Object.hasOwn(inputTypes, format)) return inputTypes[format];
  return Object.hasOwn(chromeFormats, format) ? chromeFormats[format] : undefined;
}

/**
 * The options of a set of choices: a list of distinct items, each one of them (a checkbox group,
 * or a `<select multiple>`, as Chrome writes them). A list whose order or repeats matter
 * (`["up", "up", "left"]`), or a tuple, is written as JSON.
 */
function listChoices(node: JSONSchema): unknown[] | undefined {
  if (node.uniqueItems !== true || !isRecord(node.items) || node.prefixItems !== undefined) return undefined;
  const items = singleType(node.items).node;
  return Array.isArray(items.enum) && items.enum.length > 0 ? items.enum : undefined;
}

/**
 * A number field's `multipleOf` as its spinner's step (an integer's, the least whole multiple of it:
 * 2.5 steps by 5, 0.5 by 1). HTML counts steps from the minimum, JSON Schema from 0: a minimum that
 * is no multiple gives way to the first multiple above it, the lowest value the field takes.
 */
function spinnerSteps(node: JSONSchema, integer: boolean): { minimum?: number; step?: number } {
  const multipleOf = node.multipleOf;
  if (typeof multipleOf !== 'number' || !Number.isFinite(multipleOf) || multipleOf <= 0) return {};
  const step = integer ? leastWholeMultiple(multipleOf) : multipleOf;
  if (step === undefined || (integer && step === 1)) return {};
  if (typeof node.minimum !== 'number' || whole(node.minimum / step)) return { step };
  return { minimum: Number((Math.ceil(node.minimum / step) * step).toPrecision(12)), step };
}

function leastWholeMultiple(step: number): number | undefined {
  for (let times = 1; times <= 1000; times += 1) if (whole(step * times)) return Math.round(step * times);
  return undefined;
}

const whole = (value: number) => Math.abs(value - Math.round(value)) < 1e-9;

/**
 * The one type a control can hold, and whether null is allowed besides: `["string", "null"]`, or
 * `anyOf` of a schema and `{type: "null"}` as zod writes `.nullable()`. A union of several types
 * has no one type (a JSON editor takes it).
 */
function singleType(node: JSONSchema): { node: JSONSchema; type: string | undefined; nullable: boolean } {
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches) {
    const others = branches.filter((branch) => !isNullSchema(branch));
    if (others.length !== 1 || !isRecord(others[0]) || Array.isArray(node.allOf)) return { node, type: undefined, nullable: false };
    const inner = singleType(followBranches(node));
    return { ...inner, nullable: inner.nullable || others.length < branches.length };
  }
  const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
  const named = types.filter((type): type is string => typeof type === 'string' && type !== 'null');
  return { node, type: named.length === 1 ? named[0] : undefined, nullable: types.includes('null') };
}
