import type { ToolScorer } from '@webmcp-agents/local-agent';
import type { Settings } from '../settings';

/** The ranker the settings ask for; `undefined` is the documented word-overlap scorer. */
export function scorerFor(settings: Settings): ToolScorer | undefined {
  switch (settings.ranker) {
    case 'word-overlap':
      return undefined;
    case 'fielded-bm25':
      return undefined;
  }
}
