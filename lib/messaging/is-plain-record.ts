// zod's record rebuilds an object by assignment, where an own "__proto__" key sets the prototype and
// is lost: schemas of a tool's arguments check with this instead, and keep the object they were given.
import { isRecord } from '@webmcp-agents/chat';

/** Whether `value` is a JSON object as a message or a file brings it: a record of Object's prototype (or none). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
