const ESCAPES: Record<string, string> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};
const SIMPLE_ESCAPE_CODES: ReadonlySet<number> = new Set(Object.keys(ESCAPES).map((letter) => letter.charCodeAt(0)));

/**
 * A JSON string from its opening quote: its value and where it ends, why it is wrong (a string),
 * or null when the text ends first. The lenient pass also takes single quotes (`quote`), raw
 * control characters, `\'` and unknown escapes (kept as written).
 */
export function readJsonString(
  text: string,
  start: number,
  end: number,
  quote: number,
  lenient: boolean,
): { value: string; end: number } | string | null {
  return lenient ? decodeLenientString(text, start, end, quote) : readStrictString(text, start, end);
}

/**
 * A strict JSON string: checked here character by character, then decoded by the native
 * JSON.parse, which cannot fail on a literal that passed the check and is far quicker on escapes.
 */
function readStrictString(text: string, start: number, end: number): { value: string; end: number } | string | null {
  let escaped = false;
  for (let position = start + 1; position < end; position += 1) {
    const code = text.charCodeAt(position);
    if (code === 0x22) {
      const literal = text.slice(start, position + 1);
      return { value: escaped ? (JSON.parse(literal) as string) : literal.slice(1, -1), end: position + 1 };
    }
    if (code < 0x20) return 'a string holds a raw control character';
    if (code !== 0x5c) continue;
    escaped = true;
    const letter = text.charCodeAt(position + 1);
    if (position + 1 >= end) return null;
    if (letter === 0x75 /* u */) {
      if (position + 6 > end) return null;
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(position + 2, position + 6))) return 'a string has a bad \\u escape';
      position += 5;
    } else if (!SIMPLE_ESCAPE_CODES.has(letter)) {
      return 'a string has an unknown escape';
    } else {
      position += 1;
    }
  }
  return null;
}

/** Decodes a string escape by escape (the lenient pass, whose strings JSON.parse would refuse). */
function decodeLenientString(text: string, start: number, end: number, quote: number): { value: string; end: number } | string | null {
  let position = start + 1;
  let runStart = position;
  let decoded = '';
  while (position < end) {
    const code = text.charCodeAt(position);
    if (code === quote) return { value: decoded + text.slice(runStart, position), end: position + 1 };
    if (code !== 0x5c) {
      position += 1;
      continue;
    }
    decoded += text.slice(runStart, position);
    if (position + 1 >= end) return null;
    const escape = readLenientEscape(text, position + 1, end);
    if (escape === null || typeof escape === 'string') return escape;
    decoded += escape.text;
    position = runStart = escape.next;
  }
  return null;
}

/** JSON's escapes, plus `\'`; an unknown one is kept as written. */
function readLenientEscape(text: string, at: number, end: number): { text: string; next: number } | string | null {
  const letter = text[at] ?? '';
  const simple = ESCAPES[letter];
  if (simple !== undefined) return { text: simple, next: at + 1 };
  if (letter === 'u') {
    if (at + 5 > end) return null;
    const hex = text.slice(at + 1, at + 5);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) return 'a string has a bad \\u escape';
    return { text: String.fromCharCode(parseInt(hex, 16)), next: at + 5 };
  }
  return { text: letter === "'" ? "'" : `\\${letter}`, next: at + 1 };
}
