import type { ToolIndex } from './tool-index';

/** How far one query term reaches beyond itself. */
export interface ExpansionSettings {
  prefixLength: number;
  prefixWeight: number;
  relatedWeight: number;
}

/**
 * The terms of the tool list that a query term matches, each with what a match is worth: the
 * term itself (1), words of the list that share its first letters, and its related words.
 */
export function expandQueryTerm(
  term: string,
  index: ToolIndex,
  relatedTerms: ReadonlyMap<string, readonly string[]>,
  settings: ExpansionSettings,
): Map<string, number> {
  const matches = new Map<string, number>([[term, 1]]);
  const offer = (candidate: string, weight: number): void => {
    if (weight > (matches.get(candidate) ?? 0) && index.postings.has(candidate)) {
      matches.set(candidate, weight);
    }
  };
  const { prefixLength, prefixWeight, relatedWeight } = settings;
  if (prefixLength > 0 && prefixWeight > 0 && term.length >= prefixLength) {
    for (const similar of index.byPrefix.get(term.slice(0, prefixLength)) ?? []) {
      offer(similar, prefixWeight);
    }
  }
  if (relatedWeight > 0) {
    for (const related of relatedTerms.get(term) ?? []) offer(related, relatedWeight);
  }
  return matches;
}
