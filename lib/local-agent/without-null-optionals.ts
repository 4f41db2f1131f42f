// Small models (LFM2 writes `role=None`) fill the optional arguments they have no value for with
// null; the page applies its own default only where the argument is left out.
import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import type { ParsedCall } from './types';
import { validateArgs } from './validate-args';

/**
 * The call with each optional argument that is `null` left out, where its schema would refuse
 * null (see validateArgs): the page then does what it does without it. A required argument, one
 * whose schema allows null and one the schema does not name are kept as the model wrote them.
 */
export function withoutNullOptionals(call: ParsedCall, schema: JSONSchema): ParsedCall {
  const root = isRecord(schema) ? schema : {};
  const properties = isRecord(root.properties) ? root.properties : {};
  const required = Array.isArray(root.required) ? root.required : [];
  const dropped = Object.keys(call.arguments).filter(
    (name) =>
      call.arguments[name] === null &&
      Object.hasOwn(properties, name) &&
      !required.includes(name) &&
      validateArgs({ type: 'object', properties: { [name]: properties[name] } }, { [name]: null }) !== null,
  );
  if (dropped.length === 0) return call;
  return { name: call.name, arguments: Object.fromEntries(Object.entries(call.arguments).filter(([name]) => !dropped.includes(name))) };
}
