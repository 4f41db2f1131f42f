import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { ToolScorer } from '../types';
import { buildToolIndex, type FieldSettings, type ToolIndex } from './tool-index';
import { createToolTermsReader, type ToolTerms } from './tool-terms';
import { tokenizeText, type TokenizeOptions } from './tokenize-text';
import { addRecentBonus } from './add-recent-bonus';
import { scoreQuery } from './score-query';
import { buildRelatedTerms } from './related-terms';
import { relatedWordGroups } from './related-words';

/** The settings of `createFieldedBm25Scorer`; every field is optional. */
export interface FieldedBm25Options {
  /** Term-frequency saturation. */
  k1?: number;
  /** Weight and length normalisation of each field. */
  fields?: Partial<FieldSettings>;
  /** Letters a query word and a tool word must share to count as a prefix match (0: off). */
  prefixLength?: number;
  /** What a prefix match is worth next to an exact one. */
  prefixWeight?: number;
  /** What a match through `relatedWordGroups` is worth next to an exact one (0: off). */
  relatedWeight?: number;
  /** Groups of words that match each other at `relatedWeight`. Default: `relatedWordGroups`. */
  relatedWordGroups?: readonly (readonly string[])[];
  /** A tool whose name the query covers scores up to this factor more (0: off). */
  nameCoverageWeight?: number;
  /** A recent tool gains this share of the best score in the list. */
  recentBonus?: number;
  /** How text becomes terms. */
  tokenize?: TokenizeOptions;
}

export const defaultFieldedBm25Options = {
  k1: 1.2,
  fields: {
    name: { weight: 3, lengthNormalisation: 0.5 },
    title: { weight: 2, lengthNormalisation: 0.5 },
    description: { weight: 1, lengthNormalisation: 0.75 },
    parameterNames: { weight: 0.7, lengthNormalisation: 0.5 },
    parameterDescriptions: { weight: 0.7, lengthNormalisation: 0.75 },
  },
  prefixLength: 4,
  prefixWeight: 0.2,
  relatedWeight: 0.4,
  relatedWordGroups,
  nameCoverageWeight: 0.25,
  recentBonus: 0.25,
  tokenize: {},
} satisfies Required<FieldedBm25Options>;

// A request longer than this is cut: it bounds the work, and its tail rarely names a tool.
const maxQueryLength = 4000;

/**
 * A BM25F scorer over a tool's name, title, description and parameters: identifier splitting,
 * stop words, light stemming, Chinese/Japanese/Korean bigrams, idf over the list it is given, a
 * discounted match for shared prefixes and related words, a lift for tools whose name the request
 * covers, and a bonus for recent tools. It caches each list's index and each tool's terms, so an
 * unchanged step costs only the query. Pure: no browser APIs; never throws on junk tools.
 */
export function createFieldedBm25Scorer(options: FieldedBm25Options = {}): ToolScorer {
  const settings = { ...defaultFieldedBm25Options, ...definedEntries(options) };
  const fields = { ...defaultFieldedBm25Options.fields, ...definedEntries(options.fields ?? {}) };
  const termsOf = createToolTermsReader(settings.tokenize);
  // Built at the first ranking, not with the scorer: a service worker makes its scorer at every
  // start (8 ms of it went here) and ranks far less often.
  let relatedTerms: ReturnType<typeof buildRelatedTerms> | undefined;
  const indexes = new WeakMap<readonly ToolDescriptor[], ToolIndex>();

  // The last index also serves a new array of the same tools, as each step of a run brings.
  let lastIndex: ToolIndex | undefined;
  const indexOf = (tools: readonly ToolDescriptor[]): ToolIndex => {
    const cached = indexes.get(tools) ?? lastIndex;
    const index =
      cached && indexIsCurrent(cached, tools, termsOf)
        ? cached
        : buildToolIndex(tools, termsOf, fields, settings.prefixLength);
    indexes.set(tools, index);
    lastIndex = index;
    return index;
  };

  // An agent ranks the same request at every step of a run: remember its terms.
  let lastQuery = '';
  let lastTerms: readonly string[] = [];
  const termsOfQuery = (query: unknown): readonly string[] => {
    const text = typeof query === 'string' ? query.slice(0, maxQueryLength) : '';
    if (text !== lastQuery) [lastQuery, lastTerms] = [text, tokenizeText(text, settings.tokenize)];
    return lastTerms;
  };

  return (tools, query, recent) => {
    if (!Array.isArray(tools) || tools.length === 0) return [];
    const index = indexOf(tools);
    relatedTerms ??= buildRelatedTerms(settings.tokenize, settings.relatedWordGroups);
    const scores = scoreQuery(index, termsOfQuery(query), relatedTerms, settings);
    addRecentBonus(tools, scores, recent, settings.recentBonus);
    return scores;
  };
}

// The terms reader answers from its cache for unchanged tools, so this costs a lookup per tool
// and catches both a list changed in place and a tool edited in place.
function indexIsCurrent(
  index: ToolIndex,
  tools: readonly ToolDescriptor[],
  termsOf: (tool: ToolDescriptor) => ToolTerms,
): boolean {
  if (index.toolTerms.length !== tools.length) return false;
  return tools.every((tool, position) => termsOf(tool) === index.toolTerms[position]);
}

// `{ k1: undefined }` means "the default", not "no number".
function definedEntries<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/** The scorer with the measured default settings. */
export const searchScorer: ToolScorer = createFieldedBm25Scorer();
