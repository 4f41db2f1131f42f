const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The longest start of `text` of at most `limit` UTF-16 units that ends between two characters as
 * a reader sees them: never inside a flag (two letters of its own), an emoji of several joined
 * into one, or a letter with its accents.
 */
export function cutGraphemes(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > limit) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}
