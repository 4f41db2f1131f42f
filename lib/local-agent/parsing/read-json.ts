import { readJsonString } from './json-string';
import { setOwn } from './set-own';

/** A value read from the text, where reading stopped, and whether the text ended too soon. */
export type JsonRead =
  | { ok: true; value: unknown; end: number; cutShort: boolean }
  | { ok: false; reason: string };

/** Deeper nesting than this is refused, so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 100;
const CUT = Symbol('cut');
const FAIL = Symbol('fail');
const STRICT_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
const PYTHON_LITERALS: Record<string, unknown> = { True: true, False: false, None: null };

/**
 * Reads one JSON value starting at `start` (after white space), no further than `end`. Strict JSON
 * first, so valid JSON is never altered; then one lenient pass that accepts trailing commas,
 * single-quoted strings, raw control characters in strings and Python's True/False/None. When the
 * text ends inside the value, what was complete is kept and every open object and array is closed;
 * a string, key or word the end cut off is dropped.
 */
export function readJson(text: string, start: number, end: number): JsonRead {
  const strict = new JsonScanner(text, start, end, false).read();
  if (strict.ok) return strict;
  const lenient = new JsonScanner(text, start, end, true).read();
  return lenient.ok ? lenient : strict;
}

class JsonScanner {
  private position: number;
  private depth = 0;
  private cutShort = false;
  private reason = '';

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly lenient: boolean,
  ) {
    this.position = start;
  }

  read(): JsonRead {
    const value = this.value();
    if (value === FAIL) return { ok: false, reason: this.reason };
    if (value === CUT) return { ok: false, reason: 'it ends too soon' };
    return { ok: true, value, end: this.position, cutShort: this.cutShort };
  }

  private value(): unknown {
    this.skipSpace();
    if (this.position >= this.end) return CUT;
    const code = this.text.charCodeAt(this.position);
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    if (code === 0x22 || (code === 0x27 && this.lenient)) return this.string(code);
    if (code === 0x2d || code === 0x2b || code === 0x2e || (code >= 0x30 && code <= 0x39)) return this.number();
    return this.word();
  }

  private object(): unknown {
    if (++this.depth > MAX_DEPTH) return this.fail('it is nested too deeply');
    this.position += 1;
    const result: Record<string, unknown> = {};
    let afterComma = false;
    for (;;) {
      if (this.atEnd()) return this.close(result);
      const code = this.text.charCodeAt(this.position);
      if (code === 0x7d && (!afterComma || this.lenient)) return this.finish(result);
      if (code !== 0x22 && !(code === 0x27 && this.lenient)) return this.fail('a key is not quoted');
      const key = this.string(code);
      if (key === FAIL) return FAIL;
      if (key === CUT || this.atEnd()) return this.close(result);
      if (this.text.charCodeAt(this.position) !== 0x3a) return this.fail("a key has no ':' after it");
      this.position += 1;
      const item = this.value();
      if (item === FAIL) return FAIL;
      if (item === CUT) return this.close(result);
      setOwn(result, key as string, item);
      const next = this.afterItem(0x7d);
      if (next !== 'comma') return next === 'closed' ? this.finish(result) : next === 'cut' ? this.close(result) : FAIL;
      afterComma = true;
    }
  }

  private array(): unknown {
    if (++this.depth > MAX_DEPTH) return this.fail('it is nested too deeply');
    this.position += 1;
    const result: unknown[] = [];
    let afterComma = false;
    for (;;) {
      if (this.atEnd()) return this.close(result);
      const code = this.text.charCodeAt(this.position);
      if (code === 0x5d && (!afterComma || this.lenient)) return this.finish(result);
      const item = this.value();
      if (item === FAIL) return FAIL;
      if (item === CUT) return this.close(result);
      result.push(item);
      const next = this.afterItem(0x5d);
      if (next !== 'comma') return next === 'closed' ? this.finish(result) : next === 'cut' ? this.close(result) : FAIL;
      afterComma = true;
    }
  }

  /** After a member: a comma, the closing bracket, the end of the text, or a mistake. */
  private afterItem(closer: number): 'comma' | 'closed' | 'cut' | 'failed' {
    if (this.cutShort || this.atEnd()) return 'cut';
    const code = this.text.charCodeAt(this.position);
    if (code === 0x2c) {
      this.position += 1;
      return 'comma';
    }
    if (code === closer) return 'closed';
    this.fail(closer === 0x7d ? "expected ',' or '}'" : "expected ',' or ']'");
    return 'failed';
  }

  private finish<T>(result: T): T {
    this.position += 1;
    this.depth -= 1;
    return result;
  }

  private close<T>(result: T): T {
    this.cutShort = true;
    this.depth -= 1;
    return result;
  }

  private string(quote: number): unknown {
    const read = readJsonString(this.text, this.position, this.end, quote, this.lenient);
    if (read === null) {
      this.position = this.end;
      return CUT;
    }
    if (typeof read === 'string') return this.fail(read);
    this.position = read.end;
    return read.value;
  }

  private number(): unknown {
    const start = this.position;
    let position = start;
    while (position < this.end && isNumberCharacter(this.text.charCodeAt(position))) position += 1;
    const lexeme = this.text.slice(start, position);
    this.position = position;
    const valid = this.lenient ? lexeme !== '' && !Number.isNaN(Number(lexeme)) : STRICT_NUMBER.test(lexeme);
    if (valid) return Number(lexeme);
    return position >= this.end ? CUT : this.fail(`"${lexeme.slice(0, 20)}" is not a number`);
  }

  private word(): unknown {
    const start = this.position;
    let position = start;
    while (position < this.end && isLetter(this.text.charCodeAt(position))) position += 1;
    const word = this.text.slice(start, position);
    this.position = position;
    if (Object.hasOwn(LITERALS, word)) return LITERALS[word];
    if (this.lenient && Object.hasOwn(PYTHON_LITERALS, word)) return PYTHON_LITERALS[word];
    if (position >= this.end && word !== '' && isLiteralPrefix(word)) return CUT;
    const shown = word === '' ? (this.text[start] ?? '') : word.slice(0, 20);
    return this.fail(`unexpected "${shown}"`);
  }

  private atEnd(): boolean {
    this.skipSpace();
    return this.position >= this.end;
  }

  private skipSpace(): void {
    let position = this.position;
    const text = this.text;
    while (position < this.end) {
      const code = text.charCodeAt(position);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
      position += 1;
    }
    this.position = position;
  }

  private fail(reason: string): typeof FAIL {
    this.reason = reason;
    return FAIL;
  }
}

function isNumberCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45;
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

function isLiteralPrefix(word: string): boolean {
  return ['true', 'false', 'null', 'True', 'False', 'None'].some((literal) => literal.startsWith(word));
}
