import type { CallCollector } from './call-collector';
import { readJson } from './read-json';
import { setOwn } from './set-own';
import { createFinder, skipSpace, trimRange } from './text-range';

const FUNCTION_CLOSE = '</function>';
const PARAMETER_OPEN = '<parameter=';
const PARAMETER_CLOSE = '</parameter>';
const MAX_NAME_LENGTH = 200;

/**
 * Reads `<function=name>{…}</function>` (Llama 3.1) and `<function=name><parameter=key>value
 * </parameter></function>` (Qwen3-coder), also spelt `<function name="name">`. Returns false, having
 * read nothing, when the range does not start with such a tag.
 */
export function readFunctionTags(text: string, start: number, end: number, collector: CallCollector): boolean {
  if (!text.startsWith('<function', start)) return false;
  const findClose = createFinder(text, FUNCTION_CLOSE);
  let position = start;
  let count = 0;
  for (;;) {
    position = skipSpace(text, position, end);
    if (position >= end) break;
    const head = readFunctionHead(text, position, end);
    if (head === null) {
      if (count > 0) collector.addUnreadable('there is text after the calls', text.slice(position, end));
      break;
    }
    const close = findClose(head.bodyStart);
    const bodyEnd = close === -1 || close > end ? end : close;
    const body = readBody(text, head.bodyStart, bodyEnd);
    if (body === null) {
      collector.addBrokenCall(head.name, 'its arguments are neither JSON nor parameters', text.slice(position, bodyEnd));
    } else {
      collector.addCall(head.name, body.arguments);
    }
    count += 1;
    position = bodyEnd === end ? end : bodyEnd + FUNCTION_CLOSE.length;
  }
  return count > 0;
}

function readFunctionHead(text: string, position: number, end: number): { name: string; bodyStart: number } | null {
  let nameStart: number;
  let terminator: string;
  if (text.startsWith('<function=', position)) {
    nameStart = position + '<function='.length;
    terminator = '>';
  } else if (text.startsWith('<function name="', position) || text.startsWith("<function name='", position)) {
    nameStart = position + '<function name="'.length;
    terminator = text[nameStart - 1] ?? '"';
  } else {
    return null;
  }
  const limit = Math.min(end, nameStart + MAX_NAME_LENGTH);
  let nameEnd = nameStart;
  while (nameEnd < limit && text[nameEnd] !== terminator && text[nameEnd] !== '>') nameEnd += 1;
  const name = text.slice(nameStart, nameEnd).trim();
  const tagEnd = findWithin(text, '>', nameEnd, Math.min(end, nameEnd + 2));
  return name === '' || tagEnd === -1 ? null : { name, bodyStart: tagEnd + 1 };
}

/** The arguments a function body holds (undefined when it is empty), or null when it is junk. */
function readBody(text: string, start: number, end: number): { arguments: unknown } | null {
  const [from, to] = trimRange(text, start, end);
  if (from >= to) return { arguments: undefined };
  if (text.charCodeAt(from) === 0x7b) {
    const read = readJson(text, from, to);
    return read.ok ? { arguments: read.value } : null;
  }
  const parameters = text.startsWith(PARAMETER_OPEN, from) ? readParameters(text, from, to) : null;
  return parameters === null ? null : { arguments: parameters };
}

/** `<parameter=key>\nvalue\n</parameter>`, each value a string without its framing newlines. */
function readParameters(text: string, start: number, end: number): Record<string, unknown> | null {
  const result: Record<string, unknown> = {};
  const findClose = createFinder(text, PARAMETER_CLOSE);
  let position = start;
  while (position < end && text.startsWith(PARAMETER_OPEN, position)) {
    const keyEnd = findWithin(text, '>', position, Math.min(end, position + MAX_NAME_LENGTH));
    if (keyEnd === -1) return null;
    const close = findClose(keyEnd);
    const valueEnd = close === -1 || close > end ? end : close;
    const value = text.slice(keyEnd + 1, valueEnd).replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    setOwn(result, text.slice(position + PARAMETER_OPEN.length, keyEnd).trim(), value);
    position = skipSpace(text, valueEnd === end ? end : valueEnd + PARAMETER_CLOSE.length, end);
  }
  return position >= end ? result : null;
}

/** Where `character` first occurs in [start, limit), or -1: a bounded search stays linear. */
function findWithin(text: string, character: string, start: number, limit: number): number {
  for (let position = start; position < limit; position += 1) {
    if (text[position] === character) return position;
  }
  return -1;
}
