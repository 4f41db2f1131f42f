// The calls inside one call region, found as its text streams in: a region may hold a list of
// calls (`[f(x=1), f(x=1), …`, `[{…}, {…}, …`) that runs on without ever closing.
import { createCallBrackets, readBracket, type CallBrackets } from './parsing/call-brackets';

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
  /** The depth at which the first call opened (its `(` or `{`), where each call closes; -1 before. */
  callDepth: number;
  /** The text since the last call closed: the call being read, as far as it came. */
  call: string;
}

/**
 * A reader of one region's text that hands `onCall` each call closed in it. Text is compared as
 * written: a loop writes the very same text again.
 */
export function createCallItems(onCall: (item: CallItem) => void): CallItems {
  const state: ItemsState = { brackets: createCallBrackets(false), callDepth: -1, call: '' };
  return {
    read(piece, at) {
      let from = 0;
      for (let index = 0; index < piece.length; index += 1) {
        if (!closesCall(state, piece.charCodeAt(index))) continue;
        const text = state.call + piece.slice(from, index + 1);
        state.call = '';
        from = index + 1;
        // What comes between calls (`[`, `, `, a new line) is not part of either.
        onCall({ text: text.replace(/^[\s,[]+/, ''), end: at + index + 1, lists: state.callDepth });
      }
      state.call += piece.slice(from);
    },
    get endsAfterCall() {
      return /^[\s,\]`]*$/.test(state.call);
    },
  };
}

/** Reads one character of the region: answers whether it closes a call of the list. */
function closesCall(state: ItemsState, code: number): boolean {
  const { brackets } = state;
  const step = readBracket(brackets, code);
  if (step > 0 && state.callDepth < 0 && code !== 0x5b /* [ */) {
    state.callDepth = brackets.depth - 1;
    // Pythonic calls' strings end where the parser's lenient pass ends them (`text='I'm done :)'`); JSON's at their quote.
    brackets.lenient = code === 0x28 /* ( */;
  }
  return step < 0 && code !== 0x5d /* ] */ && brackets.depth === state.callDepth;
}
