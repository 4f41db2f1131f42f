// Its own file: the character classes that the literal scanner, the number reader, the reader of
// pythonic calls and the streamed call items use.

export function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** A letter, `_`, or (not first) a digit: what a Python name, and each part of a tool's name, is made of. */
export function isNameCharacter(code: number, first: boolean): boolean {
  const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
  return letter || (!first && isDigit(code));
}
