import { MAX_CALLS_PER_REPLY } from './call-collector';
import { createCallBrackets, readBracket } from './call-brackets';
import { isNameCharacter } from './is-name-character';
import { CUT, FAIL, PythonScanner } from './python-literal';
import { setOwn } from './set-own';
import { isSpaceCode } from './text-range';

/** One call of a pythonic list: read, or not, with the reason. */
export type PythonicItem =
  | { ok: true; name: string; arguments: Record<string, unknown> }
  | { ok: false; name: string | null; reason: string; start: number; end: number };

/**
 * Reads `[name(arg=value, …), …]` (the brackets may be missing). Returns null when the text does
 * not start like a call at all. A call that cannot be read becomes an item with its reason and the
 * reading goes on after its closing parenthesis, so one bad call never drops a good sibling. When
 * the text ends inside a call, the arguments read so far make the call.
 */
export function readPythonicCalls(text: string, start: number, end: number): PythonicItem[] | null {
  const scanner = new PythonScanner(text, start, end, false);
  scanner.skipSpace();
  if (text.charCodeAt(scanner.position) === 0x5b) scanner.position += 1;
  const items: PythonicItem[] = [];
  // A lenient read of a broken call may scan to the end of the text: a few are worth it, not one
  // per call of a reply that repeats the same mistake.
  let lenientTries = maxLenientTries;
  for (;;) {
    scanner.skipSpace();
    const code = text.charCodeAt(scanner.position);
    if (scanner.position >= end || code === 0x5d) break;
    if (code === 0x2c && items.length > 0) {
      scanner.position += 1;
      continue;
    }
    const callStart = scanner.position;
    const name = dottedName(scanner, text);
    scanner.skipSpace();
    if (name === '' || (scanner.position < end && text.charCodeAt(scanner.position) !== 0x28)) {
      if (items.length === 0) return null;
      items.push({ ok: false, name: null, reason: 'there is text after the calls', start: callStart, end });
      break;
    }
    if (scanner.position >= end) {
      items.push({ ok: false, name, reason: 'it ends before the arguments', start: callStart, end });
      break;
    }
    const { item, next } = readCall(text, name, callStart, scanner.position, end, lenientTries);
    if (item.ok === false) lenientTries -= 1;
    items.push(item);
    // No step takes more calls: reading on would only cost time (each bad call rescans the rest).
    if (items.length > MAX_CALLS_PER_REPLY) break;
    if (next < 0 || next >= end) break;
    scanner.position = next;
  }
  return items;
}

/** `name.sub.name`, or '' where no name starts. */
function dottedName(scanner: PythonScanner, text: string): string {
  // A WebMCP name may start with a digit (`2fa_verify`), unlike a Python one. The name is checked
  // against the tools offered right after: a number taken for one is only an unknown tool.
  let name = namePart(scanner, text);
  // It may hold dots and dashes (`shop.cart-add`), and each part may start with a digit too.
  while (name !== '' && (scanner.peek() === 0x2e || scanner.peek() === 0x2d) && isNameCharacter(scanner.peek(1), false)) {
    const separator = String.fromCharCode(scanner.peek());
    scanner.position += 1;
    name += separator + namePart(scanner, text);
  }
  return name;
}

/** Letters, digits and `_` from the scanner's position on, in any order. */
function namePart(scanner: PythonScanner, text: string): string {
  const start = scanner.position;
  while (isNameCharacter(scanner.peek(), false)) scanner.position += 1;
  return text.slice(start, scanner.position);
}

const maxLenientTries = 4;

/** One call from its `(`: strictly, then (while `lenientTries` last) leniently, else skipped to its `)`. */
function readCall(
  text: string,
  name: string,
  callStart: number,
  open: number,
  end: number,
  lenientTries: number,
): { item: PythonicItem; next: number } {
  const strict = readArguments(new PythonScanner(text, open + 1, end, false));
  if (strict.ok) return { item: { ok: true, name, arguments: strict.arguments }, next: strict.end };
  const lenient = lenientTries > 0 ? readArguments(new PythonScanner(text, open + 1, end, true)) : strict;
  // A lenient read guesses where each string ends: a guess that leaves the list broken after the
  // call ended a string too soon, and would run the call with its argument cut short.
  if (lenient.ok && endsCall(text, lenient.end, end)) return { item: { ok: true, name, arguments: lenient.arguments }, next: lenient.end };
  const next = skipBalanced(text, open, end);
  const item: PythonicItem = { ok: false, name, reason: strict.reason, start: callStart, end: next < 0 ? end : next };
  return { item, next };
}

type ArgumentsRead = { ok: true; arguments: Record<string, unknown>; end: number } | { ok: false; reason: string };

/** `name=value, …)`; when the text ends first, the arguments read so far. */
function readArguments(scanner: PythonScanner): ArgumentsRead {
  const result: Record<string, unknown> = {};
  for (;;) {
    scanner.skipSpace();
    if (scanner.position >= scanner.end) break;
    if (scanner.peek() === 0x29) {
      scanner.position += 1;
      break;
    }
    const key = scanner.identifier();
    scanner.skipSpace();
    if (scanner.position >= scanner.end) break;
    if (key === '' || scanner.peek() !== 0x3d || scanner.peek(1) === 0x3d) {
      return { ok: false, reason: 'arguments must be written name=value' };
    }
    scanner.position += 1;
    const value = scanner.value();
    if (value === FAIL) return { ok: false, reason: scanner.reason };
    if (value === CUT) break;
    setOwn(result, key, value);
    scanner.skipSpace();
    if (scanner.position >= scanner.end) break;
    if (scanner.peek() === 0x2c) scanner.position += 1;
    else if (scanner.peek() !== 0x29) return { ok: false, reason: "expected ',' or ')'" };
  }
  return { ok: true, arguments: result, end: scanner.position };
}

/**
 * Whether what follows a call at `position` may follow one in a list: a comma, the list's end,
 * nothing, or after white space the next call (`name(`), as the list is read.
 */
function endsCall(text: string, position: number, end: number): boolean {
  const from = position;
  while (position < end && isSpaceCode(text.charCodeAt(position))) position += 1;
  const code = text.charCodeAt(position);
  if (position >= end || code === 0x2c || code === 0x5d) return true;
  if (position === from) return false;
  const scanner = new PythonScanner(text, position, end, false);
  if (dottedName(scanner, text) === '') return false;
  scanner.skipSpace();
  return text.charCodeAt(scanner.position) === 0x28;
}

/** Just past the `)` that closes the `(` at `open`, quotes respected; -1 when there is none. */
function skipBalanced(text: string, open: number, end: number): number {
  // A call neither pass could read: its strings are taken to end at their quote, as the strict pass ends them.
  const brackets = createCallBrackets(false);
  for (let position = open; position < end; position += 1) {
    if (readBracket(brackets, text.charCodeAt(position)) < 0 && brackets.depth === 0) return position + 1;
  }
  return -1;
}
