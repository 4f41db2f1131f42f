// What a character outside ASCII costs a small model's tokenizer (see estimateTokens), by how well
// its script is known: a table of ranges of its own, apart from the reading of the text.

/** Tokens a character outside ASCII costs, by how well small models' vocabularies know its script. */
export function scriptCost(code: number): number {
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
