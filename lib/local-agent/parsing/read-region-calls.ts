import type { CallCollector } from './call-collector';
import { readFunctionTags } from './read-function-tags';
import { readJsonValues } from './read-json-values';
import { readPythonicCalls } from './read-pythonic-calls';
import { skipSpace, trimRange } from './text-range';

/**
 * Reads what one call tag holds: JSON (`{…}`, `[{…}, …]`, several objects), pythonic calls
 * (`[name(a=1)]`), or `<function=name>` blocks, possibly inside a ``` fence.
 */
export function readRegionCalls(text: string, regionStart: number, regionEnd: number, collector: CallCollector): void {
  const [start, end] = unfence(text, ...trimRange(text, regionStart, regionEnd));
  if (start >= end) {
    collector.addUnreadable('the tool call is empty', '');
    return;
  }
  const code = text.charCodeAt(start);
  const opensObject = code === 0x7b || (code === 0x5b && text.charCodeAt(skipSpace(text, start + 1, end)) === 0x7b);
  if (opensObject) {
    readJsonCalls(text, start, end, collector);
    return;
  }
  if (readFunctionTags(text, start, end, collector)) return;
  const items = readPythonicCalls(text, start, end);
  if (items === null) {
    collector.addUnreadable('it is neither JSON nor name(argument=value)', text.slice(start, end));
    return;
  }
  for (const item of items) {
    if (item.ok) collector.addCall(item.name, item.arguments);
    else collector.addBrokenCall(item.name, item.reason, text.slice(item.start, item.end));
  }
}

function readJsonCalls(text: string, start: number, end: number, collector: CallCollector): void {
  const read = readJsonValues(text, start, end);
  for (const value of read.values) {
    collector.addValue(value.value, value.cutShort, text.slice(value.start, value.end));
  }
  if (read.failure !== null) collector.addUnreadable(read.failure.reason, text.slice(read.failure.at, end));
}

/** The inside of a ``` fence that fills the whole range, or the range itself. */
function unfence(text: string, start: number, end: number): [number, number] {
  if (!text.startsWith('```', start)) return [start, end];
  let bodyStart = start + 3;
  while (bodyStart < end && /[\w+-]/.test(text[bodyStart] ?? '')) bodyStart += 1;
  const bodyEnd = end - 3 > bodyStart && text.startsWith('```', end - 3) ? end - 3 : end;
  return trimRange(text, bodyStart, bodyEnd);
}
