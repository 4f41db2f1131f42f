import { isDigit, isNameCharacter } from './is-name-character';
import { readPythonNumber } from './python-number';
import { readPythonString } from './python-string';
import { setOwn } from './set-own';
import { isSpaceCode } from './text-range';

/** The text ended inside the value. */
export const CUT = Symbol('cut');
/** The value is not a literal this reader accepts; the scanner's `reason` says why. */
export const FAIL = Symbol('fail');

/** Deeper nesting than this is refused, so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 100;
const WORDS: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null };

/**
 * Reads Python literals as JSON values: strings (with Python escapes, r/u prefixes, triple
 * quotes and raw newlines), ints (leading zeros too), floats, True/False/None and their JSON
 * spellings, lists, tuples and sets (as arrays) and dicts. In the lenient pass a quote ends a
 * string only where a delimiter follows it, which reads `'sed -n '1,2p' f'` as the model meant.
 */
export class PythonScanner {
  position: number;
  reason = '';
  private depth = 0;

  constructor(
    private readonly text: string,
    start: number,
    readonly end: number,
    private readonly lenient: boolean,
  ) {
    this.position = start;
  }

  value(): unknown {
    this.skipSpace();
    if (this.position >= this.end) return CUT;
    const code = this.text.charCodeAt(this.position);
    if (code === 0x22 || code === 0x27) return this.string(false);
    if (code === 0x5b) return this.sequence(0x5d, false);
    if (code === 0x28) return this.sequence(0x29, true);
    if (code === 0x7b) return this.braces();
    if (code === 0x2d || code === 0x2b || code === 0x2e || isDigit(code)) return this.number();
    return this.word();
  }

  /** An identifier at the current position ('' when there is none). */
  identifier(): string {
    const start = this.position;
    let position = start;
    while (position < this.end && isNameCharacter(this.text.charCodeAt(position), position === start)) position += 1;
    this.position = position;
    return this.text.slice(start, position);
  }

  /** The character code at the current position, plus `offset` (NaN past the text). */
  peek(offset = 0): number {
    const position = this.position + offset;
    return position < this.end ? this.text.charCodeAt(position) : Number.NaN;
  }

  skipSpace(): void {
    let position = this.position;
    while (position < this.end && isSpaceCode(this.text.charCodeAt(position))) position += 1;
    this.position = position;
  }

  fail(reason: string): typeof FAIL {
    this.reason = reason;
    return FAIL;
  }

  private string(raw: boolean): unknown {
    const read = readPythonString(this.text, this.position, this.end, raw, this.lenient);
    if (read === null) {
      this.position = this.end;
      return CUT;
    }
    this.position = read.end;
    return read.value;
  }

  /** A list or tuple; `(x)` without a comma is just x, as in Python. */
  private sequence(closer: number, isTuple: boolean): unknown {
    if (++this.depth > MAX_DEPTH) return this.fail('it is nested too deeply');
    this.position += 1;
    const items: unknown[] = [];
    let sawComma = false;
    for (;;) {
      this.skipSpace();
      if (this.position >= this.end) return CUT;
      if (this.text.charCodeAt(this.position) === closer) break;
      const item = this.value();
      if (item === FAIL || item === CUT) return item;
      items.push(item);
      const next = this.separator(closer);
      if (next !== 'comma') {
        if (next !== 'closed') return next;
        break;
      }
      sawComma = true;
    }
    this.position += 1;
    this.depth -= 1;
    return isTuple && items.length === 1 && !sawComma ? items[0] : items;
  }

  /** A dict, or a set (as an array); `{}` is an empty dict. */
  private braces(): unknown {
    if (++this.depth > MAX_DEPTH) return this.fail('it is nested too deeply');
    this.position += 1;
    const dict: Record<string, unknown> = {};
    const set: unknown[] = [];
    let isSet = false;
    for (let index = 0; ; index += 1) {
      this.skipSpace();
      if (this.position >= this.end) return CUT;
      if (this.text.charCodeAt(this.position) === 0x7d) break;
      const key = this.value();
      if (key === FAIL || key === CUT) return key;
      this.skipSpace();
      if (index === 0) isSet = this.text.charCodeAt(this.position) !== 0x3a;
      if (isSet) set.push(key);
      else {
        const entry = this.dictEntry(dict, key);
        if (entry !== true) return entry;
      }
      const next = this.separator(0x7d);
      if (next !== 'comma') {
        if (next !== 'closed') return next;
        break;
      }
    }
    this.position += 1;
    this.depth -= 1;
    return isSet ? set : dict;
  }

  private dictEntry(dict: Record<string, unknown>, key: unknown): true | typeof CUT | typeof FAIL {
    if (this.position >= this.end) return CUT;
    if (this.text.charCodeAt(this.position) !== 0x3a) return this.fail("a dict key has no ':' after it");
    if (key !== null && typeof key === 'object') return this.fail('a dict key is a list or dict');
    this.position += 1;
    const item = this.value();
    if (item === FAIL || item === CUT) return item;
    setOwn(dict, key === null ? 'null' : String(key), item);
    return true;
  }

  private separator(closer: number): 'comma' | 'closed' | typeof CUT | typeof FAIL {
    this.skipSpace();
    if (this.position >= this.end) return CUT;
    const code = this.text.charCodeAt(this.position);
    if (code === 0x2c) {
      this.position += 1;
      return 'comma';
    }
    if (code === closer) return 'closed';
    return this.fail(`expected ',' or '${String.fromCharCode(closer)}'`);
  }

  private word(): unknown {
    const start = this.position;
    const word = this.identifier();
    const next = this.text.charCodeAt(this.position);
    if (next === 0x22 || next === 0x27) {
      const prefix = word.toLowerCase();
      if (prefix === 'r' || prefix === 'u') return this.string(prefix === 'r');
      if (prefix.length <= 2 && /^[rbf]+$/.test(prefix)) return this.fail('bytes and f-strings are not allowed');
    }
    if (Object.hasOwn(WORDS, word)) return WORDS[word];
    if (this.position >= this.end && word !== '' && Object.keys(WORDS).some((literal) => literal.startsWith(word))) {
      return CUT;
    }
    if (word === '') return this.fail(`unexpected "${this.text[start] ?? ''}"`);
    this.skipSpace();
    if (this.text.charCodeAt(this.position) === 0x28) return this.fail('nested calls are not allowed');
    return this.fail(`"${word.slice(0, 30)}" is not a value`);
  }

  private number(): unknown {
    const read = readPythonNumber(this.text, this.position, this.end);
    this.position = read.end;
    if ('reason' in read) return this.fail(read.reason);
    return 'cut' in read ? CUT : read.value;
  }
}
