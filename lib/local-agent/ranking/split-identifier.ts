/**
 * Splits a name or a run of text into its words: `getUserByID`, `get_user_by_id`,
 * `users.get-by-id` and `badge1` all come apart where a person would read a break. A run of
 * characters of a script written without spaces (Chinese, Thai…) stays one word.
 */
export function splitIdentifier(text: string): string[] {
  return text.match((wordPattern ??= buildWordPattern())) ?? [];
}

/**
 * Characters of the scripts that are written without spaces between words: Chinese, Japanese
 * (with its long-vowel mark ー), Korean, Thai, Lao, Khmer and Myanmar.
 */
export const unspacedScript =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]/u;

// Built at the first split, not when the service worker loads this module: a pattern of Unicode
// scripts takes a millisecond or two to build, and most starts rank nothing.
let wordPattern: RegExp | undefined;

// In order: an unspaced run; an acronym before a capitalised word (`ID` of `IDList`); a
// capitalised or lower-case word; an acronym; digits; any other letters (with their marks).
function buildWordPattern(): RegExp {
  return new RegExp(
    [
      `${unspacedScript.source}+`,
      '\\p{Lu}+(?=\\p{Lu}\\p{Ll})',
      '\\p{Lu}?[\\p{Ll}\\p{M}]+',
      '\\p{Lu}+',
      '\\p{N}+',
      '[\\p{L}\\p{M}]+',
    ].join('|'),
    'gu',
  );
}
