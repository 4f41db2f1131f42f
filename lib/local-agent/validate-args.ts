import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { describeName, describeValue, hasType, knownTypes, sameJson } from './json-values';

/**
 * The first problem with a call's arguments against a tool's (compacted) schema, or null. It
 * checks, in order: `args` is an object; every `required` key is present and not `""`; then each
 * known property, in the schema's order, for its `type`, `enum`, `minimum` and `maximum`.
 * Unknown arguments and nested schemas are not checked. The messages are written for the model
 * to read and fix. Never throws.
 */
export function validateArgs(schema: JSONSchema, args: unknown): string | null {
  if (!isRecord(args)) return `Arguments must be a JSON object, got ${describeValue(args)}.`;
  // A schema that is not an object constrains nothing (a page's junk must not block every call).
  const root = isRecord(schema) ? schema : {};
  const missing = findMissingRequired(root.required, args);
  if (missing !== undefined) return `Missing required argument ${describeName(missing)}.`;
  const properties = isRecord(root.properties) ? root.properties : {};
  for (const name of Object.keys(properties)) {
    const propertySchema = properties[name];
    if (!isRecord(propertySchema) || !isPresent(args, name)) continue;
    const problem = checkProperty(name, propertySchema, args[name]);
    if (problem !== null) return problem;
  }
  return null;
}

// The empty string counts as missing: small models fill a required field they know nothing about
// with "", and the page would then act on nothing.
function findMissingRequired(
  required: unknown,
  args: Record<string, unknown>,
): string | undefined {
  if (!Array.isArray(required)) return undefined;
  return required.find(
    (name): name is string =>
      typeof name === 'string' && (!isPresent(args, name) || args[name] === ''),
  );
}

function checkProperty(name: string, schema: Record<string, unknown>, value: unknown): string | null {
  // Whole, in quotes: the model writes the name back exactly (see describeName).
  const label = describeName(name);
  const types = knownTypes(schema.type);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return `${label} must be ${types.join(' or ')}, got ${describeValue(value)}.`;
  }
  // An empty enum would refuse every value: read it as a page's slip, not as "nothing is valid".
  const choices = schema.enum;
  if (Array.isArray(choices) && choices.length > 0 && !choices.some((choice) => sameJson(choice, value))) {
    if (choices.length <= namedChoices) return `${label} must be one of ${choices.map(describeValue).join(', ')}.`;
    const named = likeFirst(choices, value).slice(0, namedChoices).map(describeValue).join(', ');
    // The documented "must be one of …" still, the list cut and counted.
    return `${label} must be one of ${named}, … (${choices.length.toLocaleString('en-US')} values in all).`;
  }
  if (typeof value !== 'number') return null;
  if (isFiniteNumber(schema.minimum) && value < schema.minimum) {
    return `${label} must be at least ${schema.minimum}.`;
  }
  if (isFiniteNumber(schema.maximum) && value > schema.maximum) {
    return `${label} must be at most ${schema.maximum}.`;
  }
  return null;
}

/** The most values of an enum a message names: past it, the model has the whole list in its prompt already. */
const namedChoices = 20;

/**
 * The values, those most like what the model wrote first (the same but for case, then one that
 * holds it or is held in it), the rest in the schema's order: a long list's message names the
 * value it meant.
 */
function likeFirst(choices: readonly unknown[], value: unknown): unknown[] {
  const key = (choice: unknown) => (typeof choice === 'string' ? choice.toLowerCase() : JSON.stringify(choice) ?? '');
  const written = key(value);
  const likeness = (choice: unknown) => {
    const text = key(choice);
    if (text === written) return 0;
    return written !== '' && (text.includes(written) || written.includes(text)) ? 1 : 2;
  };
  return choices.map((choice, index) => ({ choice, index, like: likeness(choice) })).sort((a, b) => a.like - b.like || a.index - b.index).map(({ choice }) => choice);
}

/** A key counts as present when the object has it as its own, with a value JSON can carry. */
function isPresent(args: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(args, name) && args[name] !== undefined;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
