// Letters of the right-to-left scripts (Hebrew, Arabic and those near them), and letters of any script.
const rightToLeftLetter = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/g;
const letter = /\p{L}/gu;

/**
 * The direction a block of a reply reads in, by most of its letters: an Arabic list whose items
 * each start with a Latin name ("iPhone 15 Pro: بسعر 4999 ريال") is still Arabic, where the first
 * letter alone would say left to right. `auto` where it has no letters.
 */
export function textDirection(text: string): 'rtl' | 'ltr' | 'auto' {
  const letters = text.match(letter)?.length ?? 0;
  if (letters === 0) return 'auto';
  const rightToLeft = text.match(rightToLeftLetter)?.length ?? 0;
  return rightToLeft * 2 >= letters ? 'rtl' : 'ltr';
}
