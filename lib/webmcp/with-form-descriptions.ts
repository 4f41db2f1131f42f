import { readProperty } from './adapters/tool-adapter';
import { controlDescription, namedControls } from './form-controls';

type JsonObject = Record<string, unknown>;

/**
 * Chrome's schema of a `<form toolname>` leaves a radio or checkbox group undescribed, though its
 * `<fieldset>`'s legend names it ("Size", "Extras"): the tool comes back with such a field described
 * as the extension's own form reader describes it (see `controlDescription`), so that the model
 * reads what a person reads. A description Chrome gave stays; any other tool is returned as it is.
 */
export function withFormDescriptions(tool: unknown, form: HTMLFormElement): unknown {
  const schema = readProperty(tool, 'inputSchema');
  const properties = isObject(schema) ? schema.properties : undefined;
  if (!isObject(schema) || !isObject(properties) || typeof tool !== 'object' || tool === null) return tool;
  const fields = namedControls(form);
  const described = Object.entries(properties).flatMap(([name, property]) => {
    if (!isObject(property) || (typeof property.description === 'string' && property.description.trim() !== '')) return [];
    const description = controlDescription(fields.get(name) ?? []);
    return description ? [[name, { ...property, description }] as const] : [];
  });
  if (described.length === 0) return tool;
  const inputSchema = { ...schema, properties: { ...properties, ...Object.fromEntries(described) } };
  // The browser's own tool object stays what is read for everything else.
  return new Proxy(tool, { get: (target, key) => (key === 'inputSchema' ? inputSchema : Reflect.get(target, key)) });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
