import type { ChatMessage } from '@webmcp-agents/chat';
import { cutText } from './cut-text';
import { measurePiece } from './measure-piece';

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

/**
 * Counts `text` piece by piece until the count would pass `budget`. `end` is how many characters
 * fit (the whole length when all do): a word or a run of capitals or punctuation may be cut inside.
 */
function walk(text: string, budget: number): { tokens: number; end: number } {
  let tokens = 0;
  let index = 0;
  while (index < text.length) {
    const piece = measurePiece(text, index);
    if (tokens + piece.cost > budget) {
      const left = budget - tokens;
      return { tokens, end: index + (left < 1 ? 0 : piece.firstChars + (left - 1) * piece.perToken) };
    }
    tokens += piece.cost;
    index = piece.next;
  }
  return { tokens, end: text.length };
}
