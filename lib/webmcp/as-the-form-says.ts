import { isRecord } from '../chat/is-record';
import { readProperty } from './adapters/tool-adapter';
import { hasPlaceholderChoice, namedControls, textLengths, type FormControl } from './form-controls';
import { fieldDescription, formWords, withRuleWords } from './form-tool-schema';
import { numberSteps } from './number-steps';

type JsonObject = Record<string, unknown>;

/**
 * Chrome's schema of a `<form toolname>` says some fields otherwise than the form does, and the
 * tool comes back with each as the extension's own form reader writes it (see `formToolSchema`):
 * - a required select's placeholder ("Choose…", an empty value) is offered as a choice, which the
 *   form then refuses: it is left out of the field's `enum` and `anyOf`;
 * - a radio or checkbox group goes undescribed, though its `<fieldset>`'s legend names it ("Extras");
 * - a number's steps are a `multipleOf` even where they count from its `min`, not from 0: they are
 *   said in words instead (and where the browser gives none, the form's own are given);
 * - a text's `maxlength` and `minlength` are left out: they are added, and said in its description
 *   (see `withRuleWords`), which the model's schema does not keep;
 * - a time's or a colour's form is a pattern in `format`: said in words instead.
 * A description Chrome gave stays. Any other tool, or one whose schema is not as Chrome writes it,
 * is returned as it is.
 */
export function asTheFormSays(tool: unknown, form: HTMLFormElement): unknown {
  const schema = readProperty(tool, 'inputSchema');
  const properties = isRecord(schema) ? schema.properties : undefined;
  if (!isRecord(schema) || !isRecord(properties) || typeof tool !== 'object' || tool === null) return tool;
  const fields = namedControls(form);
  const changed = Object.entries(properties).flatMap(([name, property]) => {
    const controls = fields.get(name);
    const said = controls && isRecord(property) ? asTheFieldSays(property, controls) : property;
    return said !== property ? [[name, said] as const] : [];
  });
  if (changed.length === 0) return tool;
  const inputSchema = { ...schema, properties: { ...properties, ...Object.fromEntries(changed) } };
  // The browser's own tool object stays what is read for everything else.
  return new Proxy(tool, { get: (target, key) => (key === 'inputSchema' ? inputSchema : Reflect.get(target, key)) });
}

/** One field's property as the form says it, or the same object where it says nothing more. */
function asTheFieldSays(property: JsonObject, controls: readonly FormControl[]): JsonObject {
  let said = property;
  if (hasPlaceholderChoice(controls)) said = withoutEmptyChoice(said) ?? said;
  const steps = numberSteps(controls[0]);
  if (typeof said.multipleOf === 'number' && steps.words !== undefined) {
    const { multipleOf: _countsFromZero, ...rest } = said;
    said = rest;
  }
  // A browser that gives no steps at all: the form's own.
  if (said.multipleOf === undefined && steps.multipleOf !== undefined && (said.type === 'number' || said.type === 'integer')) said = { ...said, multipleOf: steps.multipleOf };
  // A text's lengths, which Chrome leaves out: the inspector checks a hand run against them.
  const lengths = said.type === 'string' ? textLengths(controls[0]) : {};
  if (Object.entries(lengths).some(([key, value]) => said[key] !== value)) said = { ...said, ...lengths };
  // A time's or a colour's form, which Chrome writes as a pattern in `format` (the prompt would read
  // the pattern, then the words): said in words alone.
  if (typeof said.format === 'string' && said.format.startsWith('^') && formWords(controls[0]) !== undefined) {
    const { format: _pattern, ...rest } = said;
    said = rest;
  }
  const given = typeof said.description === 'string' && said.description.trim() !== '' ? said.description : undefined;
  const description = given !== undefined ? withRuleWords(given, controls[0]) : fieldDescription(controls);
  if (description !== given && description !== undefined) said = { ...said, description };
  return said;
}

/** The property without its empty choice, or undefined where it offers none (or nothing else). */
function withoutEmptyChoice(property: JsonObject): JsonObject | undefined {
  const listed = Array.isArray(property.enum) ? property.enum.filter((value) => value !== '') : undefined;
  const choices = Array.isArray(property.anyOf) ? property.anyOf.filter((choice) => !(isRecord(choice) && choice.const === '')) : undefined;
  const dropped = (listed && listed.length < (property.enum as unknown[]).length) || (choices && choices.length < (property.anyOf as unknown[]).length);
  if (!dropped || listed?.length === 0 || choices?.length === 0) return undefined;
  return { ...property, ...(listed ? { enum: listed } : {}), ...(choices ? { anyOf: choices } : {}) };
}
