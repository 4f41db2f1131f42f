import { beforeAll, describe, expect, it } from 'vitest';
import { bm25Scorer } from '../../../bench/bm25';
import { evaluateRanker, type RetrievalScores } from '../../../bench/retrieval';
import { searchScorer } from '../../../lib/local-agent/ranking/fielded-bm25-scorer';
import { sharedEvalAvailable, sharedEvalMissingMessage } from '../../support/shared-eval';

if (!sharedEvalAvailable) console.warn(sharedEvalMissingMessage);

const bySet = (scores: RetrievalScores[]) => new Map(scores.map((each) => [each.set, each]));

describe.skipIf(!sharedEvalAvailable)('searchScorer on the public retrieval sets', () => {
  let search = new Map<string, RetrievalScores>();
  let bm25 = new Map<string, RetrievalScores>();
  // Every query of four sets, twice: seconds on a busy two-core machine, past the default 10.
  beforeAll(() => {
    search = bySet(evaluateRanker(searchScorer));
    bm25 = bySet(evaluateRanker(bm25Scorer));
  }, 60_000);

  it('meets the hit@5 targets of the BFCL and MetaTool sets', () => {
    expect(search.get('rank-bfcl.json')!.hitAt5).toBeGreaterThanOrEqual(97);
    expect(search.get('rank-bfcl-live.json')!.hitAt5).toBeGreaterThanOrEqual(93);
    expect(search.get('rank-metatool.json')!.hitAt5).toBeGreaterThanOrEqual(70);
  });

  it('finds at least as much as plain BM25 in the first 5 and the first 8 of every set', () => {
    for (const [set, scores] of search) {
      const baseline = bm25.get(set)!;
      expect(scores.hitAt5, set).toBeGreaterThanOrEqual(baseline.hitAt5);
      expect(scores.recallAt8, set).toBeGreaterThanOrEqual(baseline.recallAt8);
    }
  });

  it('keeps its measured recall@8 on the multi-tool MCP tasks (the 55 target is not met)', () => {
    expect(search.get('rank-mcp.json')!.recallAt8).toBeGreaterThanOrEqual(45);
  });
});
