// How estimateTokens reads text: piece by piece, where BPE tokenizers split it, each piece with
// its cost and how much of it fits a few tokens, so that the count and the cut share one reading.
import { scriptCost } from './script-cost';

/**
 * A piece of text, `text[index, next)`, and the tokens it costs. Where it does not fit whole,
 * `left` tokens hold `firstChars + (left - 1) * perToken` of it.
 */
export interface Piece {
  next: number;
  cost: number;
  firstChars: number;
  perToken: number;
}

const enum Kind {
  Small,
  Capital,
  Digit,
  Space,
  Punctuation,
  Other,
}

function kindAt(text: string, index: number): Kind {
  const code = text.charCodeAt(index);
  if (code >= 97 && code <= 122) return Kind.Small;
  if (code >= 65 && code <= 90) return Kind.Capital;
  if (code >= 48 && code <= 57) return Kind.Digit;
  if (code === 32 || (code >= 9 && code <= 13)) return Kind.Space;
  if (code > 32 && code < 127) return Kind.Punctuation;
  return Kind.Other;
}

// Words that fill a tool list and that every tokenizer reads as one token.
const schemaWords = new Set([
  'description',
  'function',
  'parameters',
  'properties',
  'Properties',
  'additional',
  'required',
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'items',
  'default',
  'format',
  'minimum',
  'maximum',
  'pattern',
  'arguments',
]);

/** The piece that starts at `index` (see estimateTokens for what each kind costs). */
export function measurePiece(text: string, index: number): Piece {
  const kind = kindAt(text, index);
  if (kind === Kind.Small || kind === Kind.Capital) return wordPiece(text, index, kind);
  if (kind === Kind.Punctuation) return punctuationPiece(text, index);
  if (kind === Kind.Space) {
    let next = index + 1;
    while (next < text.length && kindAt(text, next) === Kind.Space) next += 1;
    return { next, cost: spaceCost(text, index, next), firstChars: 0, perToken: 0 };
  }
  // A digit is a token; a character outside ASCII costs what its script does.
  return { next: index + 1, cost: kind === Kind.Other ? scriptCost(text.charCodeAt(index)) : 1, firstChars: 0, perToken: 0 };
}

/** A word, or a run of capitals, that starts at `index` with a letter of `kind`. */
function wordPiece(text: string, index: number, kind: Kind.Small | Kind.Capital): Piece {
  let next = index + 1;
  while (next < text.length && kindAt(text, next) === kind) next += 1;
  // Capitals followed by small letters: the last capital begins a word.
  if (kind === Kind.Capital && next < text.length && kindAt(text, next) === Kind.Small) {
    if (next - index > 1) next -= 1;
    else while (next < text.length && kindAt(text, next) === Kind.Small) next += 1;
  }
  const length = next - index;
  // Capitals alone, or letters run into digits (a hash, an id), split into short tokens.
  if (kindAt(text, next - 1) === Kind.Capital || (index > 0 && kindAt(text, index - 1) === Kind.Digit)) {
    return { next, cost: Math.ceil(length / 2), firstChars: 2, perToken: 2 };
  }
  const cost = length <= 5 || (length <= 11 && schemaWords.has(text.slice(index, next))) ? 1 : 1 + Math.ceil((length - 5) / 4);
  return { next, cost, firstChars: 5, perToken: 4 };
}

/** A run of punctuation that starts at `index`: one repeated character runs cheaper. */
function punctuationPiece(text: string, index: number): Piece {
  let next = index + 1;
  const first = text.charCodeAt(index);
  let repeated = true;
  while (next < text.length && kindAt(text, next) === Kind.Punctuation) {
    if (text.charCodeAt(next) !== first) repeated = false;
    next += 1;
  }
  const length = next - index;
  if (repeated && length > 3) return { next, cost: 1 + Math.ceil(length / 16), firstChars: 0, perToken: 16 };
  return { next, cost: Math.ceil(length / 3), firstChars: 3, perToken: 3 };
}

/** A run of white space, `text[start, end)`: its line breaks and the spaces or tabs of each line. */
function spaceCost(text: string, start: number, end: number): number {
  let cost = 0;
  let spaces = 0;
  let tabs = 0;
  let breaks = 0;
  let emptyLines = 0;
  for (let index = start; index <= end; index += 1) {
    const code = index < end ? text.charCodeAt(index) : -1;
    if (code === 32) spaces += 1;
    else if (code === 9) tabs += 1;
    // `\r\n` is one line break: its `\r` is passed over.
    else if (code !== 13 || text.charCodeAt(index + 1) !== 10) {
      // The end of a line (or of the run): its spaces and tabs, then the break itself.
      const length = spaces + tabs;
      if (spaces > 0 && tabs > 0) cost += Math.ceil(length / 2);
      else if (length > 0) {
        // One space before a word is part of the word's token.
        const beforeWord = code === -1 && tabs === 0 && end < text.length && (kindAt(text, end) === Kind.Small || kindAt(text, end) === Kind.Capital);
        cost += Math.min(length, 2) + Math.floor(length / (tabs > 0 ? 16 : 64)) - (beforeWord ? 1 : 0);
      }
      // A line break, and `\r`, `\v` or `\f`, a token each; a line break right after another (an
      // empty line) a quarter, as tokenizers read runs of them together.
      if (code === 10 && length === 0 && breaks > 0) emptyLines += 1;
      else if (code !== -1) cost += 1;
      if (code === 10) breaks += 1;
      spaces = 0;
      tabs = 0;
    }
  }
  return cost + Math.ceil(emptyLines / 4);
}
