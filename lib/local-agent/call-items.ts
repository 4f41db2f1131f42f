// The calls inside one call region, found as its text streams in: a region may hold a list of
// calls (`[f(x=1), f(x=1), …`, `[{…}, {…}, …`) that runs on without ever closing.
import { createCallBrackets, readBracket, type CallBrackets } from './parsing/call-brackets';
import { isNameCharacter } from './parsing/is-name-character';

/** A call closed in a region: its text as written, where it ends in the reply, and the lists (`[`) open around it. */
export interface CallItem {
  text: string;
  end: number;
  lists: number;
}

/** The reading of one region's text, piece by piece. */
export interface CallItems {
  /** Reads the next piece of the region's text, which starts at `at` in the reply. */
  read(piece: string, at: number): void;
  /** Whether nothing but list punctuation (`]`, `,`, spaces, a fence's close) came after the last call closed. */
  readonly endsAfterCall: boolean;
}

/** What the reading of a region knows between pieces of its text. */
interface ItemsState {
  brackets: CallBrackets;
  /**
   * The lists (`[`) open around each call: the depth of the brackets where the first call opened
   * (its `(` or `{`), and where each call closes; -1 before.
   */
  lists: number;
  /** The text since the last call closed: the call being read, as far as it came. */
  call: string;
  /**
   * Where in `call` the call being read opened its bracket; -1 before. A closing bracket before it
   * is a stray one (`{…}}}`), not a call.
   */
  opening: number;
}

/**
 * A reader of one region's text that hands `onCall` each call closed in it. Text is compared as
 * written: a loop writes the very same text again.
 */
export function createCallItems(onCall: (item: CallItem) => void): CallItems {
  const state: ItemsState = { brackets: createCallBrackets(false), lists: -1, call: '', opening: -1 };
  return {
    read(piece, at) {
      let from = 0;
      for (let index = 0; index < piece.length; index += 1) {
        const step = readCallBracket(state, piece.charCodeAt(index));
        if (step === 'open') state.opening = state.call.length + index - from;
        if (step !== 'close') continue;
        const text = state.call + piece.slice(from, index + 1);
        // What comes before the call (`[`, `, `, a fence's ```json line) is not part of it: a loop's
        // first copy reads as its next ones.
        onCall({ text: text.slice(callStart(text, state.opening)), end: at + index + 1, lists: state.lists });
        state.call = '';
        state.opening = -1;
        from = index + 1;
      }
      state.call += piece.slice(from);
    },
    get endsAfterCall() {
      return /^[\s,\]`]*$/.test(state.call);
    },
  };
}

/** Reads one character of the region: whether it opens a call of the list, closes one, or neither. */
function readCallBracket(state: ItemsState, code: number): 'open' | 'close' | undefined {
  const { brackets } = state;
  const step = readBracket(brackets, code);
  if (step < 0 && state.opening < 0 && code !== 0x5d /* ] */ && brackets.depth < state.lists) {
    // Between calls only a `]` closes a list: a stray `}` or `)` there (`[{…}}, {…}}, …`) closes nothing.
    brackets.depth += 1;
    return undefined;
  }
  if (step > 0 && state.opening < 0 && code !== 0x5b /* [ */) {
    if (state.lists < 0) {
      state.lists = brackets.depth - 1;
      // Pythonic calls' strings end where the parser's lenient pass ends them (`text='I'm done :)'`); JSON's at their quote.
      brackets.lenient = code === 0x28 /* ( */;
    }
    // A call opens where the first one did: brackets gone astray before it open none.
    return brackets.depth === state.lists + 1 ? 'open' : undefined;
  }
  const closes = step < 0 && code !== 0x5d /* ] */ && state.opening >= 0 && brackets.depth === state.lists;
  return closes ? 'close' : undefined;
}

/** Where the call that opened its bracket at `opening` starts: there (`{`), or at its name (`add_to_cart(`). */
function callStart(text: string, opening: number): number {
  if (text.charCodeAt(opening) !== 0x28 /* ( */) return opening;
  let start = opening;
  // A tool's name is made of parts joined by `.` or `-` (see dottedName).
  while (start > 0 && isToolNameCode(text.charCodeAt(start - 1))) start -= 1;
  return start;
}

function isToolNameCode(code: number): boolean {
  return isNameCharacter(code, false) || code === 0x2e /* . */ || code === 0x2d /* - */;
}
