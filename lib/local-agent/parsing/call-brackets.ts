import { endsLenientString } from './python-string';
import { isSpaceCode } from './text-range';

// The brackets of call text, read one character at a time so that a stream can be read as it
// comes: the parser skips a call it cannot read by them, and the reply's calls are found by them
// as it streams (see createCallItems).

/** Where the reading of call text is, between characters. */
export interface CallBrackets {
  /** Brackets (`(`, `[`, `{`) open outside strings. */
  depth: number;
  /**
   * Whether strings end as the parser's lenient pass ends a Python string (see readPythonString):
   * a quote ends one only where a delimiter follows it. Otherwise at their quote, as JSON's do.
   */
  lenient: boolean;
  /** The quote of the string the text is in (a character code), or 0. */
  quote: number;
  escaped: boolean;
  /** A lenient string's quote was read: the next character that is not a space says whether it ended the string. */
  quoteRead: boolean;
}

export function createCallBrackets(lenient: boolean): CallBrackets {
  return { depth: 0, lenient, quote: 0, escaped: false, quoteRead: false };
}

/** Reads one character: 1 where it opens a bracket, -1 where it closes one, 0 otherwise (a string's, too). */
export function readBracket(state: CallBrackets, code: number): number {
  if (state.quoteRead) {
    if (isSpaceCode(code)) return 0;
    state.quoteRead = false;
    if (endsLenientString(code)) state.quote = 0;
  }
  if (state.quote !== 0) {
    readInString(state, code);
    return 0;
  }
  if (code === 0x22 /* " */ || code === 0x27 /* ' */) {
    state.quote = code;
  } else if (code === 0x28 /* ( */ || code === 0x5b /* [ */ || code === 0x7b /* { */) {
    state.depth += 1;
    return 1;
  } else if (code === 0x29 /* ) */ || code === 0x5d /* ] */ || code === 0x7d /* } */) {
    // A stray closing bracket is the model's slip: the brackets after it still pair up.
    state.depth = Math.max(0, state.depth - 1);
    return -1;
  }
  return 0;
}

function readInString(state: CallBrackets, code: number): void {
  if (state.escaped) state.escaped = false;
  else if (code === 0x5c /* \ */) state.escaped = true;
  else if (code !== state.quote) return;
  else if (state.lenient) state.quoteRead = true;
  else state.quote = 0;
}
