/**
 * The words of free text, as the documented word-overlap scoring reads them: lower-cased runs of
 * letters, combining marks and numbers (`\p{L}\p{M}\p{N}`) in any script; everything else (spaces,
 * punctuation, `_ . -`) separates words.
 */
export function splitWords(text: string): string[] {
  const lower = text.toLowerCase();
  // Most tool text is ASCII, and the ASCII pattern runs about twice as fast as the Unicode one.
  const pattern = nonAscii.test(lower) ? unicodeWord : asciiWord;
  return lower.match(pattern) ?? [];
}

/**
 * The words of a tool's name: split like text and also at camelCase humps, so `addToCart`,
 * `add_to_cart`, `add.to-cart` and `AddToCart` all give `add`, `to`, `cart`. An acronym stays
 * whole (`getHTMLPage` gives `get`, `html`, `page`); digits stay attached (`v2`).
 */
export function splitNameWords(name: string): string[] {
  return splitWords(name.replace(lowerToUpper, '$1 $2').replace(acronymEnd, '$1 $2'));
}

const nonAscii = /[^\x00-\x7f]/;
const asciiWord = /[a-z0-9]+/g;
const unicodeWord = /[\p{L}\p{M}\p{N}]+/gu;
const lowerToUpper = /([\p{Ll}\p{N}])(\p{Lu})/gu;
const acronymEnd = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
