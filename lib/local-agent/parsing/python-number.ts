// Its own file: how a Python number's text is found and read, apart from the scanner's containers and words.
import { isNameCharacter } from './is-name-character';

const MAX_NUMBER_LENGTH = 100;

/** Where the number ends, and its value, or that the text ended inside it, or why it is not one. */
export type PythonNumberRead = { end: number; value: number } | { end: number; cut: true } | { end: number; reason: string };

/** Reads the number that starts at `start` (a sign, a dot or a digit), as Python would mean it. */
export function readPythonNumber(text: string, start: number, end: number): PythonNumberRead {
  let position = start + 1;
  while (position < end) {
    const code = text.charCodeAt(position);
    const previous = text.charCodeAt(position - 1);
    const signAfterExponent = (code === 0x2b || code === 0x2d) && (previous === 0x65 || previous === 0x45);
    if (!signAfterExponent && !isNameCharacter(code, false) && code !== 0x2e) break;
    position += 1;
  }
  const lexeme = text.slice(start, position);
  if (lexeme.length > MAX_NUMBER_LENGTH) return { end: position, reason: 'a number is too long' };
  const negative = lexeme.startsWith('-');
  const body = lexeme.replace(/^[-+]/, '').replaceAll('_', '');
  // Number() also reads 0x, 0o and 0b prefixes and leading zeros, as the model meant them.
  const parsed = body === '' ? Number.NaN : Number(body);
  if (Number.isFinite(parsed)) return { end: position, value: negative ? -parsed : parsed };
  return position >= end ? { end: position, cut: true } : { end: position, reason: `"${lexeme.slice(0, 30)}" is not a number` };
}
