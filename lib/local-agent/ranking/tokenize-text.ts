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
 * boundaries, lower-cased, stop words dropped, stemmed; Chinese, Japanese and Korean runs as
 * character bigrams so that a description in those scripts can match a query in them.
 */
export function tokenizeText(text: string, options: TokenizeOptions = {}): string[] {
  const stem = options.stem ?? true;
  const dropStopWords = options.dropStopWords ?? true;
  const keepNumbers = options.keepNumbers ?? false;
  const terms: string[] = [];
  for (const word of splitIdentifier(text)) {
    if (unspacedScript.test(word)) {
      pushBigrams(word, terms);
      continue;
    }
    const lower = word.toLowerCase();
    if (dropStopWords && stopWords.has(lower)) continue;
    if (!keepNumbers && digitsOnly.test(lower)) continue;
    terms.push(stem ? stemWord(lower) : lower);
  }
  return terms;
}

function pushBigrams(run: string, terms: string[]): void {
  const characters = Array.from(run);
  if (characters.length === 1) {
    terms.push(run);
    return;
  }
  for (let index = 0; index + 1 < characters.length; index += 1) {
    terms.push(characters[index]! + characters[index + 1]!);
  }
}
