import { cutText } from './cut-text';

/**
 * A cautious count of the tokens `text` costs a small model, made without its tokenizer. The text
 * is split where BPE tokenizers split it, and each piece costs about the most that Qwen3 and
 * Llama 3 spend on it:
 * - a word (an optional capital, then small letters) a token per 7 letters: common words are one
 *   token whole, rarer ones split;
 * - a run of capitals, or letters that follow a digit (a hash, an id), a token per 2 letters;
 * - a digit a token (Qwen3 reads numbers digit by digit);
 * - a run of punctuation a token per 3 characters (JSON's `":"` is one token);
 * - a line break a token, and an indent up to two more (one space before a word is part of it);
 * - any other character a token (about 0.7 for Chinese in Qwen3; smaller vocabularies spend more
 *   on scripts they saw less of).
 * Against Qwen3 and Llama 3.2 this counts 1.0–1.4 times their tokens on tool schemas, prose, JSON
 * results, ids and links (see bench/RESULTS.md); random base64 it counts at about 0.85.
 */
export function estimateTokens(text: string): number {
  return walk(text, Number.POSITIVE_INFINITY).tokens;
}

/** The longest start of `text` that `estimateTokens` counts at no more than `tokens`. */
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
  if (code < 0x80) return Kind.Punctuation;
  return Kind.Other;
}

const isLetter = (kind: Kind | undefined) => kind === Kind.Small || kind === Kind.Capital;

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
    // Characters a token: the piece may be cut after any multiple of them.
    let perToken = 1;
    let cost = 1;
    if (kind === Kind.Small || kind === Kind.Capital) {
      while (next < text.length && kindAt(text, next) === kind) next += 1;
      // Capitals followed by small letters: the last capital begins a word.
      if (kind === Kind.Capital && next < text.length && kindAt(text, next) === Kind.Small) {
        if (next - index > 1) next -= 1;
        else while (next < text.length && kindAt(text, next) === Kind.Small) next += 1;
      }
      // Capitals alone, or letters run into digits (a hash, an id), split into short tokens.
      const dense = kindAt(text, next - 1) === Kind.Capital || (index > 0 && kindAt(text, index - 1) === Kind.Digit);
      perToken = dense ? 2 : 7;
      cost = Math.ceil((next - index) / perToken);
    } else if (kind === Kind.Punctuation) {
      while (next < text.length && kindAt(text, next) === Kind.Punctuation) next += 1;
      perToken = 3;
      cost = Math.ceil((next - index) / perToken);
    } else if (kind === Kind.Space) {
      while (next < text.length && kindAt(text, next) === Kind.Space) next += 1;
      let indentStart = next;
      while (indentStart > index && text.charCodeAt(indentStart - 1) !== 10) indentStart -= 1;
      const spaces = next - indentStart;
      const indent = isLetter(next < text.length ? kindAt(text, next) : undefined) ? Math.min(spaces - 1, 1) : Math.min(spaces, 2);
      perToken = 0;
      cost = (indentStart > index ? 1 : 0) + Math.max(0, indent);
    }
    if (tokens + cost > budget) return { tokens, end: index + (budget - tokens) * perToken };
    tokens += cost;
    index = next;
  }
  return { tokens, end: text.length };
}
