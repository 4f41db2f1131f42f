// Made the first time a text is cut or counted, not when the service worker loads this module.
let segmenter: Intl.Segmenter | undefined;
function graphemes(): Intl.Segmenter {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
}

// How far before the limit the cut is looked for: a flag takes 4 units, a family of emoji 11, a
// letter with its accents a few. A character longer than that (a letter under dozens of marks) is
// cut between code points instead.
const lookBack = 64;

/**
 * The longest start of `text` of at most `limit` UTF-16 units that ends between two characters as
 * a reader sees them: never inside a flag (two letters of its own), an emoji of several joined
 * into one, or a letter with its accents; where there is no such place near the limit (one
 * character longer than the limit), between two code points. Only the text near the limit is
 * read, so a long text costs no more to cut than a short one.
 */
export function cutGraphemes(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const from = windowStart(text, Math.max(0, limit - lookBack));
  let end = 0;
  // Two units past the limit tell whether a character goes on across it (a flag's second letter).
  for (const { index, segment } of graphemes().segment(text.slice(from, limit + 2))) {
    const stop = from + index + segment.length;
    if (stop > limit) break;
    end = stop;
  }
  if (end > 0) return text.slice(0, end);
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

/**
 * Where to start reading near `at`: not inside a code point, nor inside a run of flags, whose
 * letters pair up from the run's start (started in the middle, 🇯🇵🇫🇷 would read as 🇵🇫 and 🇷…).
 */
function windowStart(text: string, at: number): number {
  let from = at > 0 && (text.charCodeAt(at) & 0xfc00) === 0xdc00 ? at - 1 : at;
  while (from >= 2 && isRegionalIndicator(text.codePointAt(from - 2))) from -= 2;
  return from;
}

function isRegionalIndicator(codePoint: number | undefined): boolean {
  return codePoint !== undefined && codePoint >= 0x1f1e6 && codePoint <= 0x1f1ff;
}

/** How many characters `text` has as a reader counts them: a flag, an emoji of several joined, a letter with its accents, each one. */
export function countGraphemes(text: string): number {
  let count = 0;
  for (const _ of graphemes().segment(text)) count += 1;
  return count;
}
