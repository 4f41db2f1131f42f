import { isSpaceCode } from './text-range';

const ESCAPES: Record<string, string> = {
  '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\n': '',
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * A Python string literal from its opening quote (single, double or tripled): its value and where
 * it ends, or null when the text ends first. Raw newlines are kept, as small models write them.
 * In the lenient pass a quote ends the string only where a delimiter follows it.
 */
export function readPythonString(
  text: string,
  start: number,
  end: number,
  raw: boolean,
  lenient: boolean,
): { value: string; end: number } | null {
  const quote = text.charCodeAt(start);
  const triple = text.charCodeAt(start + 1) === quote && text.charCodeAt(start + 2) === quote;
  const quoteLength = triple ? 3 : 1;
  let position = start + quoteLength;
  let runStart = position;
  let decoded = '';
  while (position < end) {
    const code = text.charCodeAt(position);
    if (code === quote && closesString(text, position, end, triple, lenient)) {
      return { value: decoded + text.slice(runStart, position), end: position + quoteLength };
    }
    if (code !== 0x5c) {
      position += 1;
    } else if (position + 1 >= end) {
      return null;
    } else if (raw) {
      position += 2;
    } else {
      decoded += text.slice(runStart, position);
      const escape = readEscape(text, position + 1, end);
      if (escape === null) return null;
      decoded += escape.text;
      position = runStart = escape.next;
    }
  }
  return null;
}

function closesString(text: string, position: number, end: number, triple: boolean, lenient: boolean): boolean {
  const quote = text.charCodeAt(position);
  if (triple) return text.charCodeAt(position + 1) === quote && text.charCodeAt(position + 2) === quote;
  if (!lenient) return true;
  let next = position + 1;
  while (next < end && isSpaceCode(text.charCodeAt(next))) next += 1;
  return next >= end || endsLenientString(text.charCodeAt(next));
}

/** Whether `code`, after a quote and any spaces, makes the quote end a string in the lenient pass: `,`, `)`, `]`, `}` or `:`. */
export function endsLenientString(code: number): boolean {
  return code === 0x2c || code === 0x29 || code === 0x5d || code === 0x7d || code === 0x3a;
}

/** Python's escapes; an unknown one keeps its backslash, as Python does. */
function readEscape(text: string, at: number, end: number): { text: string; next: number } | null {
  const letter = text[at] ?? '';
  const simple = ESCAPES[letter];
  if (simple !== undefined) return { text: simple, next: at + 1 };
  if (letter === '\r' && text[at + 1] === '\n') return { text: '', next: at + 2 };
  let length = 0;
  while (length < 3 && at + length < end && isOctal(text.charCodeAt(at + length))) length += 1;
  if (length > 0) return { text: String.fromCharCode(parseInt(text.slice(at, at + length), 8)), next: at + length };
  const digits = HEX_DIGITS[letter];
  if (digits === undefined) return { text: `\\${letter}`, next: at + 1 };
  if (at + 1 + digits > end) return null;
  const hex = text.slice(at + 1, at + 1 + digits);
  const codePoint = /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : -1;
  if (codePoint < 0 || codePoint > 0x10ffff) return { text: `\\${letter}`, next: at + 1 };
  return { text: String.fromCodePoint(codePoint), next: at + 1 + digits };
}

function isOctal(code: number): boolean {
  return code >= 0x30 && code <= 0x37;
}
