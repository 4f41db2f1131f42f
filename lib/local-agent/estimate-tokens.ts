import { cutText } from './cut-text';

/**
 * A cautious count of the tokens `text` costs a small model, made without its tokenizer: three
 * characters of ASCII a token (Qwen3 spends one on about five of English prose and four of JSON)
 * and a token for any other character (about 0.7 for Chinese in Qwen3; smaller vocabularies
 * spend more on scripts they saw less of). Dense non-Latin text is what fills a context fastest.
 */
export function estimateTokens(text: string): number {
  let other = 0;
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) > 0x7f) other += 1;
  return Math.ceil((text.length - other) / asciiPerToken) + other;
}

/** The longest start of `text` that `estimateTokens` counts at no more than `tokens`. */
export function cutToTokens(text: string, tokens: number): string {
  // Counted in thirds of a token, so that the sums stay whole numbers.
  const budget = Math.max(0, tokens) * asciiPerToken;
  let cost = 0;
  for (let index = 0; index < text.length; index += 1) {
    cost += text.charCodeAt(index) > 0x7f ? asciiPerToken : 1;
    if (cost > budget) return cutText(text, index);
  }
  return text;
}

const asciiPerToken = 3;
