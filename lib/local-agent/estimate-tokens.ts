import type { ChatMessage } from '@webmcp-agents/chat';
import { cutText } from './cut-text';

/**
 * A cautious count of the tokens `text` costs a small model, made without its tokenizer. The text
 * is split where BPE tokenizers split it, and each piece costs about the most that Qwen3 and
 * Llama 3 spend on it:
 * - a word (an optional capital, then small letters): a token for its first five letters and one
 *   for every four after (common English words are one token whole, words of other languages and
 *   rare ones split); JSON Schema's own words (`description`, `properties`…) one token;
 * - a run of capitals, or letters that follow a digit (a hash, an id), a token per 2 letters;
 * - a digit a token (Qwen3 reads numbers digit by digit);
 * - a run of punctuation a token per 3 characters (JSON's `":"` is one token), a run of one
 *   repeated character (`-----`) a token per 16 and one more;
 * - a line break a token (an empty line a quarter), and the spaces or tabs of each line up to two
 *   more (one space before a word is part of it; long runs a token per 16 tabs or 64 spaces, mixed
 *   a token per 2);
 * - a character of the scripts both tokenizers know well (Latin, Greek, Cyrillic, Hebrew, Arabic,
 *   Thai, Chinese, Japanese, Korean) a token; of others two (Armenian, the Indic scripts);
 *   Georgian, Ethiopic, rare ideographs and characters beyond the BMP (emoji) three.
 * `npm run bench prompt-size` compares it with Qwen3 by kind of text (bench/RESULTS.md).
 */
export function estimateTokens(text: string): number {
  return walk(text, Number.POSITIVE_INFINITY).tokens;
}

/** Chat templates wrap every message in a role's header and an end mark: five tokens, and one to spare. */
export const messageFrameTokens = 6;

/** A message's tokens as `estimateTokens` counts them, with its chat-template frame. */
export function estimateMessageTokens(message: ChatMessage): number {
  return estimateTokens(message.content) + messageFrameTokens;
}

/**
 * A start of `text` that `estimateTokens` counts at no more than `tokens`: the longest, but that a
 * piece which does not fit whole is cut where its cost is surely within, and trailing spaces go.
 */
export function cutToTokens(text: string, tokens: number): string {
  const { end } = walk(text, Math.max(0, Math.floor(tokens)));
  if (end >= text.length) return text;
  // A cut right after spaces would count them as an indent: they go too.
  return cutText(text, end).trimEnd();
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

/**
 * Counts `text` piece by piece until the count would pass `budget`. `end` is how many characters
 * fit (the whole length when all do): a word or a run of capitals or punctuation may be cut inside.
 */
function walk(text: string, budget: number): { tokens: number; end: number } {
  let tokens = 0;
  let index = 0;
  while (index < text.length) {
    const kind = kindAt(text, index);
    let next = index + 1;
    let cost = 1;
    // Where the piece does not fit, `left` tokens hold `firstChars + (left - 1) * perToken` of it.
    let firstChars = 0;
    let perToken = 0;
    if (kind === Kind.Small || kind === Kind.Capital) {
      while (next < text.length && kindAt(text, next) === kind) next += 1;
      // Capitals followed by small letters: the last capital begins a word.
      if (kind === Kind.Capital && next < text.length && kindAt(text, next) === Kind.Small) {
        if (next - index > 1) next -= 1;
        else while (next < text.length && kindAt(text, next) === Kind.Small) next += 1;
      }
      const length = next - index;
      // Capitals alone, or letters run into digits (a hash, an id), split into short tokens.
      if (kindAt(text, next - 1) === Kind.Capital || (index > 0 && kindAt(text, index - 1) === Kind.Digit)) {
        cost = Math.ceil(length / 2);
        firstChars = perToken = 2;
      } else {
        cost = length <= 5 || (length <= 11 && schemaWords.has(text.slice(index, next))) ? 1 : 1 + Math.ceil((length - 5) / 4);
        firstChars = 5;
        perToken = 4;
      }
    } else if (kind === Kind.Punctuation) {
      const first = text.charCodeAt(index);
      let repeated = true;
      while (next < text.length && kindAt(text, next) === Kind.Punctuation) {
        if (text.charCodeAt(next) !== first) repeated = false;
        next += 1;
      }
      const length = next - index;
      if (repeated && length > 3) {
        cost = 1 + Math.ceil(length / 16);
        perToken = 16;
      } else {
        cost = Math.ceil(length / 3);
        firstChars = perToken = 3;
      }
    } else if (kind === Kind.Space) {
      while (next < text.length && kindAt(text, next) === Kind.Space) next += 1;
      cost = spaceCost(text, index, next);
    } else if (kind === Kind.Other) {
      cost = otherCost(text.charCodeAt(index));
    }
    if (tokens + cost > budget) {
      const left = budget - tokens;
      return { tokens, end: index + (left < 1 ? 0 : firstChars + (left - 1) * perToken) };
    }
    tokens += cost;
    index = next;
  }
  return { tokens, end: text.length };
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

/** Tokens a character outside ASCII costs, by how well small models' vocabularies know its script. */
function otherCost(code: number): number {
  // A character beyond the BMP (emoji, rare ideographs) costs 3: 2 for its first half, 1 for its second.
  if (code >= 0xd800 && code <= 0xdbff) return 2;
  if (code < 0x80) return 1; // ASCII control characters
  if (
    (code >= 0x10a0 && code < 0x1100) || // Georgian
    (code >= 0x1200 && code < 0x13a0) || // Ethiopic
    (code >= 0x3400 && code < 0x4dc0) // rare ideographs (CJK Extension A)
  ) {
    return 3;
  }
  const wellKnown =
    code < 0x0530 || // Latin, Greek, Cyrillic
    (code >= 0x0590 && code < 0x0780) || // Hebrew, Arabic
    (code >= 0x0e00 && code < 0x0e80) || // Thai
    (code >= 0x1e00 && code < 0x2c00) || // Vietnamese letters, punctuation, symbols, arrows, boxes
    (code >= 0x3000 && code < 0x3100) || // CJK punctuation, kana
    (code >= 0x4e00 && code < 0xa000) || // Chinese characters, Japanese kanji
    (code >= 0xac00 && code < 0xd7b0) || // Hangul
    code >= 0xdc00; // second halves (above), private use, compatibility forms, fullwidth forms
  return wellKnown ? 1 : 2;
}
