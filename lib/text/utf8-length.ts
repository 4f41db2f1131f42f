/**
 * How many bytes `text` takes in UTF-8, as in a file or in extension storage: a character of
 * Japanese text takes three, an emoji four. Counted without encoding the text.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00 && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A pair of UTF-16 units is one character of four bytes.
      bytes += 2;
      index += 1;
    } else bytes += 2;
  }
  return bytes;
}

/** Bytes of `value` written as JSON in UTF-8: what storage counts it as. */
export function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? '');
}
