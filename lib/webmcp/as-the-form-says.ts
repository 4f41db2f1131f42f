import { readProperty } from './adapters/tool-adapter';
import { namedControls } from './form-controls';
import { fieldDescription, withStepWords } from './form-tool-schema';
import { isNumberField, isWholeStep } from './number-steps';

type JsonObject = Record<string, unknown>;

/**
 * Chrome's schema of a `<form toolname>` says less than the form does: a radio or checkbox group
 * goes undescribed though its `<fieldset>`'s legend names it ("Extras"), a number field that only
 * takes whole numbers is a "number", and one that takes steps of 25 does not say so. The tool comes
 * back with each field as the extension's own form reader writes it (see `formToolSchema`), so that
 * the model reads what a person reads; a description Chrome gave stays, with the steps added. Any
 * other tool, or one whose schema is not as Chrome writes it, is returned as it is.
 */
export function asTheFormSays(tool: unknown, form: HTMLFormElement): unknown {
  const schema = readProperty(tool, 'inputSchema');
  const properties = isObject(schema) ? schema.properties : undefined;
  if (!isObject(schema) || !isObject(properties) || typeof tool !== 'object' || tool === null) return tool;
  const fields = namedControls(form);
  const changed = Object.entries(properties).flatMap(([name, property]) => {
    const controls = fields.get(name) ?? [];
    if (!isObject(property) || controls.length === 0) return [];
    const given = typeof property.description === 'string' && property.description.trim() !== '' ? property.description : undefined;
    const description = given ? withStepWords(given, controls[0]) : fieldDescription(controls);
    const whole = property.type === 'number' && isNumberField(controls[0]) && isWholeStep(controls[0]);
    if (description === given && !whole) return [];
    return [[name, { ...property, ...(description ? { description } : {}), ...(whole ? { type: 'integer' } : {}) }] as const];
  });
  if (changed.length === 0) return tool;
  const inputSchema = { ...schema, properties: { ...properties, ...Object.fromEntries(changed) } };
  // The browser's own tool object stays what is read for everything else.
  return new Proxy(tool, { get: (target, key) => (key === 'inputSchema' ? inputSchema : Reflect.get(target, key)) });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
