import { isRecord } from '@webmcp-agents/chat';
import { describeCall, type CallCollector } from './call-collector';
import { readJsonValues } from './read-json-values';

/** What a range read as JSON turned out to be. */
export type JsonReplyRead =
  | { kind: 'calls' }
  | { kind: 'message'; text: string }
  | { kind: 'not-calls' };

/**
 * Reads a whole range (a reply, or a fence's body) as JSON calls: `{"name", "arguments"}`, an
 * array of those (also written one after another, separated by `;` or `,`), or the Prompt API's
 * `{"type": "tool_call", …}` / `{"type": "message", "text"}`. Anything else, or any text left
 * over, and the range is prose. A range that starts like a call but is not JSON gets an error.
 */
export function readJsonReply(text: string, start: number, end: number, collector: CallCollector): JsonReplyRead {
  const read = readJsonValues(text, start, end);
  if (read.failure !== null) {
    if (looksLikeCall(text, start)) collector.addUnreadable(read.failure.reason, text.slice(start, end));
    return { kind: 'not-calls' };
  }
  if (read.stop < end || read.values.length === 0) return { kind: 'not-calls' };
  const first = read.values[0]?.value;
  if (read.values.length === 1 && isRecord(first) && first['type'] === 'message') {
    const message = first['text'];
    return typeof message === 'string' ? { kind: 'message', text: message } : { kind: 'not-calls' };
  }
  const allCalls = read.values.every(({ value, cutShort }) =>
    Array.isArray(value) ? value.length > 0 && value.every((item) => isCallShaped(item, cutShort)) : isCallShaped(value, cutShort),
  );
  if (!allCalls) return { kind: 'not-calls' };
  for (const value of read.values) collector.addValue(value.value, value.cutShort, text.slice(value.start, value.end));
  return { kind: 'calls' };
}

/**
 * Outside call tags a JSON object is a call only when it says so: a name with arguments (or
 * parameters), the Prompt API's type, or a name the end of the reply cut off before its arguments.
 */
function isCallShaped(value: unknown, cutShort: boolean): boolean {
  const shape = describeCall(value);
  if (typeof shape !== 'object') return false;
  return shape.hasArguments || cutShort || (isRecord(value) && value['type'] === 'tool_call');
}

/** `{"name"…`, `[{"name"…`, `{"type"…` or `{"function"…`, in either quote. */
function looksLikeCall(text: string, start: number): boolean {
  return /^\[?\s*\{\s*["'](?:name|type|function)["']/.test(text.slice(start, start + 40));
}
