import { relatedWordGroups } from './related-words';
import { tokenizeText, type TokenizeOptions } from './tokenize-text';

/**
 * Maps each term (as `tokenizeText` writes it) to the terms related to it by `relatedWordGroups`,
 * itself excluded, so that a query term can be looked up in one step.
 */
export function buildRelatedTerms(
  options: TokenizeOptions,
  groups: readonly (readonly string[])[] = relatedWordGroups,
): ReadonlyMap<string, readonly string[]> {
  const key = groups === relatedWordGroups ? JSON.stringify(options) : undefined;
  const known = key === undefined ? undefined : builtForDefaultGroups.get(key);
  if (known) return known;
  const built = build(options, groups);
  if (key !== undefined) builtForDefaultGroups.set(key, built);
  return built;
}

// Every scorer made with the same tokenising options shares one map.
const builtForDefaultGroups = new Map<string, ReadonlyMap<string, readonly string[]>>();

function build(
  options: TokenizeOptions,
  groups: readonly (readonly string[])[],
): ReadonlyMap<string, readonly string[]> {
  const related = new Map<string, Set<string>>();
  const termOptions: TokenizeOptions = { ...options, dropStopWords: false, keepNumbers: true };
  for (const group of groups) {
    const terms = new Set(group.flatMap((word) => tokenizeText(word, termOptions)));
    for (const term of terms) {
      let set = related.get(term);
      if (!set) related.set(term, (set = new Set()));
      for (const other of terms) if (other !== term) set.add(other);
    }
  }
  return new Map([...related].map(([term, set]) => [term, [...set]]));
}
