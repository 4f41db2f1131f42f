/**
 * A light English suffix stripper: it folds plurals, `-ing`, `-ed`, `-ly`, `-ation` and a few
 * more onto one form so that "booking", "books" and "booked" meet "book". It only has to be
 * consistent (query and tools go through the same function), not linguistically right, and it
 * leaves short words alone because stripping them conflates too much.
 */
export function stemWord(word: string): string {
  if (word.length <= 3) return word;
  const known = stems.get(word);
  if (known !== undefined) return known;
  const stem = stripEnding(stripPlural(word));
  // Remembering stems makes re-tokenising a query or a tool several times faster.
  if (stems.size >= maxRemembered) stems.clear();
  stems.set(word, stem);
  return stem;
}

const stems = new Map<string, string>();
const maxRemembered = 20_000;

function stripPlural(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (/(?:x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

// Longest first; each entry is [suffix, replacement, shortest stem kept].
const endings: ReadonlyArray<readonly [string, string, number]> = [
  ['ization', 'ize', 3],
  ['ational', 'ate', 3],
  ['fulness', 'ful', 3],
  ['ousness', 'ous', 3],
  ['iveness', 'ive', 3],
  ['ation', 'ate', 3],
  ['ition', 'ite', 3],
  ['ement', '', 4],
  ['ment', '', 4],
  ['ness', '', 3],
  ['ing', '', 3],
  ['ed', '', 3],
  ['ly', '', 3],
  ['er', '', 4],
  ['al', '', 4],
];

function stripEnding(word: string): string {
  for (const [suffix, replacement, shortest] of endings) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (stem.length < shortest || !/[aeiouy]/.test(stem)) return word;
    return normaliseTail(stem + replacement);
  }
  return normaliseTail(word);
}

// "running" → "runn" → "run"; "create"/"created"/"creating" all end as "creat".
function normaliseTail(stem: string): string {
  let tail = stem;
  if (tail.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(tail) && !/(?:ll|ss|zz)$/.test(tail)) {
    tail = tail.slice(0, -1);
  }
  if (tail.length > 3 && tail.endsWith('e')) tail = tail.slice(0, -1);
  if (tail.length > 3 && tail.endsWith('y')) tail = `${tail.slice(0, -1)}i`;
  return tail;
}
