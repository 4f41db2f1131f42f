import { expandQueryTerm, type ExpansionSettings } from './expand-query-term';
import type { ToolIndex } from './tool-index';

/** The numbers `scoreQuery` needs beyond the index. */
export interface QuerySettings extends ExpansionSettings {
  /** Term-frequency saturation. */
  k1: number;
  /** A tool whose name words the query covers entirely scores this much more, as a factor. */
  nameCoverageWeight: number;
}

/**
 * Scores every tool of an index against the query's terms: per query term, each tool keeps its
 * best match (exact, prefix or related), and the terms add up.
 */
export function scoreQuery(
  index: ToolIndex,
  queryTerms: readonly string[],
  relatedTerms: ReadonlyMap<string, readonly string[]>,
  settings: QuerySettings,
): number[] {
  const scores = new Array<number>(index.toolTerms.length).fill(0);
  const best: BestMatches = { scores: new Float64Array(index.toolTerms.length), touched: [] };
  const matched = new Map<string, number>();
  for (const term of new Set(queryTerms)) {
    for (const [match, weight] of expandQueryTerm(term, index, relatedTerms, settings)) {
      addTerm(index, match, weight, settings.k1, best);
      if (weight > (matched.get(match) ?? 0)) matched.set(match, weight);
    }
    for (const position of best.touched) {
      scores[position]! += best.scores[position]!;
      best.scores[position] = 0;
    }
    best.touched.length = 0;
  }
  if (settings.nameCoverageWeight > 0) applyNameCoverage(index, scores, matched, settings.nameCoverageWeight);
  return scores;
}

/** Each tool's best match for the current query term, and which tools have one. */
interface BestMatches {
  scores: Float64Array;
  touched: number[];
}

function addTerm(index: ToolIndex, term: string, weight: number, k1: number, best: BestMatches): void {
  const posting = index.postings.get(term);
  if (!posting) return;
  const idf = index.idf.get(term) ?? 0;
  const { tools, frequencies } = posting;
  for (let entry = 0; entry < tools.length; entry += 1) {
    const position = tools[entry]!;
    const frequency = frequencies[entry]!;
    const score = (weight * idf * frequency * (k1 + 1)) / (frequency + k1);
    if (best.scores[position] === 0) best.touched.push(position);
    if (score > best.scores[position]!) best.scores[position] = score;
  }
}

// A request that names every word of a tool's name ("stock price" → get_stock_price) points at it
// more surely than one that shares a single word.
function applyNameCoverage(
  index: ToolIndex,
  scores: number[],
  matched: ReadonlyMap<string, number>,
  weight: number,
): void {
  scores.forEach((score, position) => {
    const nameTerms = index.nameTerms[position]!;
    if (score === 0 || nameTerms.length === 0) return;
    let covered = 0;
    for (const term of nameTerms) covered += matched.get(term) ?? 0;
    scores[position] = score * (1 + (weight * covered) / nameTerms.length);
  });
}
