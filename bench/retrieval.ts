import { rankTools, type ToolScorer } from '@webmcp-agents/local-agent';
import type { BenchSection } from './bench-section';
import { bm25Scorer } from './bm25';
import { type RankQuery, type RankSet, type RankSetName, rankSetNames, readRankSet } from './rank-sets';
import { runDirectly } from './run-directly';
import { sharedEvalAvailable, sharedEvalMissingMessage } from '../tests/support/shared-eval';

/** How well one ranker finds the expected tools of one set, in percent. */
export interface RetrievalScores {
  set: RankSetName;
  queries: number;
  hitAt1: number;
  hitAt5: number;
  hitAt8: number;
  recallAt5: number;
  recallAt8: number;
}

interface PublishedFigures {
  hitAt1: number;
  hitAt5: number;
  recallAt5: number;
  wordOverlapHitAt5: number;
}

/** The eval README's published figures: its BM25 baseline, and its word-overlap hit@5. */
export const publishedFigures: Record<RankSetName, PublishedFigures> = {
  'rank-bfcl.json': { hitAt1: 79.0, hitAt5: 94.5, recallAt5: 94.5, wordOverlapHitAt5: 90.5 },
  'rank-bfcl-live.json': { hitAt1: 68.5, hitAt5: 88.5, recallAt5: 88.5, wordOverlapHitAt5: 75.0 },
  'rank-mcp.json': { hitAt1: 35.6, hitAt5: 65.6, recallAt5: 39.0, wordOverlapHitAt5: 41.1 },
  'rank-metatool.json': { hitAt1: 44.4, hitAt5: 63.1, recallAt5: 57.9, wordOverlapHitAt5: 54.2 },
};

/**
 * Ranks every query of the four sets against its whole pool with `rankTools` (max 8) and the
 * given scorer (default: the documented word overlap). A query is a hit@k when any expected tool
 * is in the first k; recall@k is the share of its expected tools there. Empty without the data.
 */
export function evaluateRanker(scorer?: ToolScorer): RetrievalScores[] {
  const scores: RetrievalScores[] = [];
  for (const name of rankSetNames) {
    const set = readRankSet(name);
    if (set !== null) scores.push(scoreSet(name, set, scorer));
  }
  return scores;
}

function scoreSet(name: RankSetName, set: RankSet, scorer: ToolScorer | undefined): RetrievalScores {
  const totals = { hitAt1: 0, hitAt5: 0, hitAt8: 0, recallAt5: 0, recallAt8: 0 };
  for (const query of set.queries) {
    const shown = rankTools(set.pool, query.query, { max: 8, scorer }).map((tool) => tool.name);
    totals.hitAt1 += hitAt(query, shown, 1);
    totals.hitAt5 += hitAt(query, shown, 5);
    totals.hitAt8 += hitAt(query, shown, 8);
    totals.recallAt5 += recallAt(query, shown, 5);
    totals.recallAt8 += recallAt(query, shown, 8);
  }
  const percent = (total: number) => Math.round((1000 * total) / Math.max(1, set.queries.length)) / 10;
  return {
    set: name,
    queries: set.queries.length,
    hitAt1: percent(totals.hitAt1),
    hitAt5: percent(totals.hitAt5),
    hitAt8: percent(totals.hitAt8),
    recallAt5: percent(totals.recallAt5),
    recallAt8: percent(totals.recallAt8),
  };
}

function hitAt(query: RankQuery, shown: readonly string[], k: number): number {
  const first = shown.slice(0, k);
  return query.expected.some((name) => first.includes(name)) ? 1 : 0;
}

function recallAt(query: RankQuery, shown: readonly string[], k: number): number {
  if (query.expected.length === 0) return 0;
  const first = shown.slice(0, k);
  return query.expected.filter((name) => first.includes(name)).length / query.expected.length;
}

/** The documented scorer against the BM25 baseline on all four sets, and the baseline's check. */
export async function benchRetrieval(): Promise<BenchSection[]> {
  if (!sharedEvalAvailable) {
    return [{ title: 'Tool retrieval', rows: [], notes: [sharedEvalMissingMessage] }];
  }
  const wordOverlap = evaluateRanker();
  const bm25 = evaluateRanker(bm25Scorer);
  const rows = rankSetNames.flatMap((name) => [
    ...wordOverlap.filter((scores) => scores.set === name).map((s) => row('word overlap (documented)', s)),
    ...bm25.filter((scores) => scores.set === name).map((s) => row('BM25 baseline', s)),
  ]);
  const publishedOverlap = rankSetNames.map(
    (name) => `${name.replace(/\.json$/, '')} ${publishedFigures[name].wordOverlapHitAt5}`,
  );
  return [
    {
      title: 'Tool retrieval: rankTools, max 8, whole pool per query (%)',
      rows,
      notes: [`The eval README's own word-overlap hit@5: ${publishedOverlap.join(', ')}.`],
    },
    {
      title: 'BM25 baseline against the eval README (points)',
      rows: bm25.map(checkRow),
      notes: [
        'k1 1.2, b 0.75, Lucene idf, each distinct query word once, `\\w+`-style words; its stop ' +
          'list (bench/bm25-stop-words.ts) was settled by comparing with these published figures.',
      ],
    },
  ];
}

function row(ranker: string, scores: RetrievalScores): Record<string, string | number> {
  return {
    set: scores.set.replace(/\.json$/, ''),
    ranker,
    queries: scores.queries,
    'hit@1': scores.hitAt1,
    'hit@5': scores.hitAt5,
    'hit@8': scores.hitAt8,
    'recall@5': scores.recallAt5,
    'recall@8': scores.recallAt8,
  };
}

function checkRow(scores: RetrievalScores): Record<string, string | number> {
  const published = publishedFigures[scores.set];
  const difference = (ours: number, theirs: number) => `${ours.toFixed(1)} (${signed(ours - theirs)})`;
  return {
    set: scores.set.replace(/\.json$/, ''),
    'hit@1 (Δ)': difference(scores.hitAt1, published.hitAt1),
    'hit@5 (Δ)': difference(scores.hitAt5, published.hitAt5),
    'recall@5 (Δ)': difference(scores.recallAt5, published.recallAt5),
  };
}

function signed(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return rounded > 0 ? `+${rounded.toFixed(1)}` : rounded.toFixed(1);
}

await runDirectly(import.meta.url, benchRetrieval);
