import { splitIdentifier, unspacedScript } from './split-identifier';
import { stemWord } from './stem-word';
import { stopWords } from './stop-words';

/** How text becomes search terms. */
export interface TokenizeOptions {
  /** Fold suffixes with `stemWord`. Default true. */
  stem?: boolean;
  /** Drop `stopWords`. Default true. */
  dropStopWords?: boolean;
  /** Keep terms made only of digits. Default false: "3 units" rarely names a tool. */
  keepNumbers?: boolean;
}

const digitsOnly = /^\p{N}+$/u;

/**
 * Turns a name, a description or a query into search terms: words split at identifier
 * boundaries, lower-cased, stop words dropped, stemmed; runs of scripts written without spaces
 * (Chinese, Japanese, Korean, Thai…) as character bigrams so that a description in those scripts
 * can match a query in them; Cyrillic, Greek, Arabic and Hebrew words as pushMarkedWord says.
 */
export function tokenizeText(text: string, options: TokenizeOptions = {}): string[] {
  const stem = options.stem ?? true;
  const dropStopWords = options.dropStopWords ?? true;
  const keepNumbers = options.keepNumbers ?? false;
  const terms: string[] = [];
  // Full-width letters (typed with a Japanese input method) and other compatibility forms read as
  // their plain letters; plain ASCII, most tool text, has none.
  for (const word of splitIdentifier(nonAscii.test(text) ? text.normalize('NFKC') : text)) {
    if (unspacedScript.test(word)) {
      pushBigrams(word, terms);
      continue;
    }
    const lower = foldCase(word);
    if (dropStopWords && stopWords.has(lower)) continue;
    if (!keepNumbers && digitsOnly.test(lower)) continue;
    if (nonAscii.test(lower) && marked.test(lower)) {
      pushMarkedWord(lower, terms);
      continue;
    }
    terms.push(stem ? stemWord(lower) : lower);
  }
  return terms;
}

/** Lower case, with the German ß as "ss" and the Turkish İ as a plain i (its lower case keeps a dot). */
function foldCase(word: string): string {
  const lower = word.toLowerCase();
  return nonAscii.test(lower) ? lower.replace(/i\u0307/g, 'i').replace(/ß/g, 'ss') : lower;
}

const nonAscii = /[^\x00-\x7f]/;

// Scripts whose short words are mostly prepositions and conjunctions (Russian в, на; Arabic في).
const marked = /^[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}]/u;
const arabic = /^\p{Script=Arabic}/u;
const hebrew = /^\p{Script=Hebrew}/u;
// Arabic's article and the particles written onto it ("the", "and the", "with the"…).
const arabicArticle = /^(?:[وفبكل]?ال|لل)(?=\p{L}{3})/u;
// Hebrew's one-letter prefixes ("and", "the", "in", "to", "from", "that", "as"), and "the" after one.
const hebrewPrefix = /^[והבלמשכ]ה?(?=\p{L}{3})/u;

/**
 * A word of Cyrillic, Greek, Arabic or Hebrew: words of one or two letters are dropped; Arabic and
 * Hebrew lose their vowel marks, which most text leaves out (and Arabic letters are read as
 * `normalizeArabic` says), and the little words written onto
 * the front of a word: Arabic's article goes, and a Hebrew word is also read without its prefix
 * (a root letter may look like one, so the whole word stays a term too).
 */
function pushMarkedWord(lower: string, terms: string[]): void {
  const unmarked = arabic.test(lower) || hebrew.test(lower) ? lower.replace(/\p{M}/gu, '') : lower;
  if (arabic.test(unmarked)) {
    pushArabicWord(unmarked, terms);
    return;
  }
  if (Array.from(unmarked).length <= 2) return;
  terms.push(unmarked);
  if (hebrew.test(unmarked)) {
    const bare = unmarked.replace(hebrewPrefix, '');
    if (bare !== unmarked) terms.push(bare);
  }
}

// Endings written onto an Arabic word: "my", "his", "her", the dual and plural endings (Light10's list).
const arabicSuffixes = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه', 'ي'];

/**
 * An Arabic word, its letters folded (see `normalizeArabic`), without its article and, once each
 * in turn, the endings of Light10, the light stemmer of Arabic search (Larkey, Ballesteros and
 * Connell): طلبي ("my order") and الطلب ("the order") are both طلب. A word that starts with an
 * alef with hamza and lam (إلغاء, "cancelling") has no article, but typed without its hamza it
 * reads as if it had: it is a term both ways.
 */
function pushArabicWord(word: string, terms: string[]): void {
  const folded = normalizeArabic(word);
  const bare = folded.replace(arabicArticle, '');
  const stem = arabicSuffixes.reduce((kept, suffix) => (kept.endsWith(suffix) && Array.from(kept).length - suffix.length >= 3 ? kept.slice(0, -suffix.length) : kept), bare);
  if (Array.from(stem).length > 2) terms.push(stem);
  // A final ة is written ت before an ending (سلتي, "my cart", of السلة): the stem as it ends alone too.
  if (stem !== bare && stem.endsWith('ت')) terms.push(`${stem.slice(0, -1)}ه`);
  // The word as written, unstemmed: its ending may be part of it (ألوان, "colours", is no dual).
  if (bare !== folded && !arabicArticle.test(word)) terms.push(folded);
}

/**
 * Arabic letters as people type them, as search engines read them: alef with a hamza or madda as
 * a plain alef, ta marbuta as ha, alef maksura as ya, and no tatweel (the stretching stroke).
 */
function normalizeArabic(word: string): string {
  return word.replace(/[أإآٱ]/g, 'ا').replace(/ة/g, 'ه').replace(/ى/g, 'ي').replace(/ـ/g, '');
}

// 的, the commonest Chinese character, mostly joins a word to the one before it: a pair it starts
// ("的订" in 我的订单, "my order") names nothing, yet matches every text where 的 comes before the same
// word. Pairs that end with it stay (目的, "purpose", in 目的地), as do the other particles, whose
// characters are also parts of words (了解, 完了, 酒吧).
const particleStart = /^的/u;

/** A run of a script written without spaces as its character pairs, less those 的 starts. */
function pushBigrams(run: string, terms: string[]): void {
  const characters = Array.from(run);
  if (characters.length === 1) {
    if (!particleStart.test(run)) terms.push(run);
    return;
  }
  for (let index = 0; index + 1 < characters.length; index += 1) {
    const pair = characters[index]! + characters[index + 1]!;
    if (!particleStart.test(pair)) terms.push(pair);
  }
}
