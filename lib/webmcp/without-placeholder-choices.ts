import { readProperty } from './adapters/tool-adapter';
import { hasPlaceholderChoice, namedControls } from './form-controls';

type JsonObject = Record<string, unknown>;

/**
 * Chrome's schema of a `<form toolname>` offers a required select's placeholder ("Choose…", an
 * empty value) as a choice, which the form then refuses: the tool comes back with that choice left
 * out of the field's `enum` and `anyOf`, as the extension's own form reader leaves it out (see
 * `fieldChoices`). Any other tool, or one whose schema is not as Chrome writes it, is returned as it is.
 */
export function withoutPlaceholderChoices(tool: unknown, form: HTMLFormElement): unknown {
  const schema = readProperty(tool, 'inputSchema');
  const properties = isObject(schema) ? schema.properties : undefined;
  if (!isObject(schema) || !isObject(properties) || typeof tool !== 'object' || tool === null) return tool;
  const fields = namedControls(form);
  const changed = Object.entries(properties).flatMap(([name, property]) => {
    const controls = fields.get(name);
    const without = controls && hasPlaceholderChoice(controls) && isObject(property) ? withoutEmptyChoice(property) : undefined;
    return without ? [[name, without] as const] : [];
  });
  if (changed.length === 0) return tool;
  const inputSchema = { ...schema, properties: { ...properties, ...Object.fromEntries(changed) } };
  // The browser's own tool object stays what is read for everything else.
  return new Proxy(tool, { get: (target, key) => (key === 'inputSchema' ? inputSchema : Reflect.get(target, key)) });
}

/** The property without its empty choice, or undefined where it offers none (or nothing else). */
function withoutEmptyChoice(property: JsonObject): JsonObject | undefined {
  const listed = Array.isArray(property.enum) ? property.enum.filter((value) => value !== '') : undefined;
  const choices = Array.isArray(property.anyOf) ? property.anyOf.filter((choice) => !(isObject(choice) && choice.const === '')) : undefined;
  const dropped = (listed && listed.length < (property.enum as unknown[]).length) || (choices && choices.length < (property.anyOf as unknown[]).length);
  if (!dropped || listed?.length === 0 || choices?.length === 0) return undefined;
  return { ...property, ...(listed ? { enum: listed } : {}), ...(choices ? { anyOf: choices } : {}) };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
