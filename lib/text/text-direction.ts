// Letters of the right-to-left scripts (Hebrew, Arabic and those near them): letters only, not
// their digits, vowel marks or signs.
const rightToLeftLetter = /(?=\p{L})[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/gu;
const letter = /\p{L}/gu;
// What a reader never reads as words: a fenced block of code, a link's or an image's address, a
// bare address, inline code.
const unread = /^ {0,3}(```|~~~)[^]*?(?:^ {0,3}\1|(?![^]))|\]\([^)]*\)|<[a-z][\w+.-]*:[^>\s]*>|\b[a-z][\w+.-]*:\/\/\S+|`[^`\n]*`/gim;

export type Direction = 'rtl' | 'ltr';

// A text's start tells its direction: reading only that costs the same however long it grows.
const sampleLength = 4_000;

/** The share of the read letters of a Markdown text's start that are right to left; undefined where it has none. */
function rightToLeftShare(markdown: string): number | undefined {
  const read = markdown.slice(0, sampleLength).replace(unread, ' ');
  const letters = read.match(letter)?.length ?? 0;
  return letters === 0 ? undefined : (read.match(rightToLeftLetter)?.length ?? 0) / letters;
}

/**
 * The direction a whole reply reads in: right to left where a third of its letters or more are,
 * since a reply in Arabic or Hebrew often names products and brands in Latin letters ("iPhone 15
 * Pro: بسعر 4999 ريال"), where the first letter alone would say left to right. Undefined where it
 * has no letters.
 */
export function replyDirection(markdown: string): Direction | undefined {
  const share = rightToLeftShare(markdown);
  return share === undefined ? undefined : share >= 1 / 3 ? 'rtl' : 'ltr';
}

/**
 * The direction one block of a reply reads in, where most of its letters say it (a reply may mix
 * languages: a quote, an English paragraph); undefined, the reply's own, where its letters are
 * mixed ("- iPhone 15 Pro Max: 4999 ريال") or it has none.
 */
export function blockDirection(markdown: string): Direction | undefined {
  const share = rightToLeftShare(markdown);
  if (share === undefined) return undefined;
  return share >= 0.6 ? 'rtl' : share <= 0.2 ? 'ltr' : undefined;
}
