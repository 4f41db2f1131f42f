import { searchScorer, type ToolScorer } from '@webmcp-agents/local-agent';
import type { Settings } from '../settings';

/**
 * The ranker the settings ask for: the fielded BM25 scorer by default (it beats plain BM25 on the
 * public sets, see bench/RESULTS.md); `undefined` is `rankTools`' documented word-overlap scorer.
 */
export function scorerFor(settings: Settings): ToolScorer | undefined {
  switch (settings.ranker) {
    case 'word-overlap':
      return undefined;
    case 'fielded-bm25':
      return searchScorer;
  }
}
