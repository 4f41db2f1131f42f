import { splitNameWords, splitWords } from './split-words';
import type { ToolScorer } from './types';

/**
 * The documented scoring: +3 per word of the tool's name that is in the query (or shares its
 * first four letters with a query word longer than three letters), +1 per word of the
 * description that is in the query, +2 for a recent tool.
 *
 * How the documentation's words are read:
 * - a word is a lower-cased run of letters, combining marks and numbers (`\p{L}\p{M}\p{N}`) in any
 *   script; a name also splits at `_ . -` and camelCase humps (see `splitNameWords`);
 * - each distinct word counts once, however often the name or description repeats it;
 * - a name word that is both in the query and prefix-matched earns its +3 once;
 * - the prefix rule needs four letters on both sides: a query word of four letters qualifies,
 *   one of three does not, and a name word shorter than four has no "first four letters".
 */
export const wordOverlapScorer: ToolScorer = (tools, query, recent) => {
  const queryWords = new Set(splitWords(textOf(query)));
  const queryPrefixes = new Set<string>();
  for (const word of queryWords) {
    const prefix = firstFourLetters(word);
    if (prefix !== undefined) queryPrefixes.add(prefix);
  }
  const recentNames = new Set(recent);
  return tools.map((tool) => {
    const name = nameWordsOf(textOf(tool.name));
    let score = recentNames.has(tool.name) ? 2 : 0;
    for (let index = 0; index < name.words.length; index++) {
      const prefix = name.prefixes[index];
      const matched =
        queryWords.has(name.words[index]!) || (prefix !== undefined && queryPrefixes.has(prefix));
      if (matched) score += 3;
    }
    for (const word of descriptionWordsOf(textOf(tool.description))) {
      if (queryWords.has(word)) score += 1;
    }
    return score;
  });
};

interface NameWords {
  /** Distinct words of the name. */
  words: string[];
  /** The first four letters of each word, or undefined where it is shorter. */
  prefixes: Array<string | undefined>;
}

// Splitting text is most of the cost, and a run ranks the same tools at every step, re-read from
// the page as new objects: so the words are kept by the text itself, not by the tool object.
const nameWordsCache = new Map<string, NameWords>();
const descriptionWordsCache = new Map<string, ReadonlySet<string>>();

/** Enough for every tool of several busy pages; past it the cache starts again empty. */
const cacheLimit = 4096;

function nameWordsOf(name: string): NameWords {
  return remember(nameWordsCache, name, () => {
    const words = [...new Set(splitNameWords(name))];
    return { words, prefixes: words.map(firstFourLetters) };
  });
}

/** The distinct words of a description (a set: iterating it needs no copy into an array). */
function descriptionWordsOf(description: string): ReadonlySet<string> {
  return remember(descriptionWordsCache, description, () => new Set(splitWords(description)));
}

function remember<Value>(cache: Map<string, Value>, key: string, compute: () => Value): Value {
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const value = compute();
  // Clearing beats evicting the oldest: deleting from a Map's front leaves holes that every
  // later `keys().next()` walks over.
  if (cache.size >= cacheLimit) cache.clear();
  cache.set(key, value);
  return value;
}

/** The first four letters (code points) of a word, or undefined when it has fewer. */
function firstFourLetters(word: string): string | undefined {
  let end = 0;
  let letters = 0;
  while (letters < 4 && end < word.length) {
    end += word.codePointAt(end)! > 0xffff ? 2 : 1;
    letters++;
  }
  return letters === 4 ? word.slice(0, end) : undefined;
}

// Tools are checked at the boundary, but a scorer must not throw on one that slipped through.
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
