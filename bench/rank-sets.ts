import type { ToolDescriptor } from '@webmcp-agents/chat';
import { readSharedEval } from '../tests/support/shared-eval';

/** The four public tool-retrieval sets in `../shared/eval/` (see its README). */
export const rankSetNames = [
  'rank-bfcl.json',
  'rank-bfcl-live.json',
  'rank-mcp.json',
  'rank-metatool.json',
] as const;

export type RankSetName = (typeof rankSetNames)[number];

export interface RankQuery {
  id: string;
  query: string;
  /** The tools that answer the query; any one of them in the first k makes a hit@k. */
  expected: string[];
}

/** A pool of tools that every query is ranked against. */
export interface RankSet {
  description: string;
  pool: ToolDescriptor[];
  queries: RankQuery[];
}

/** Reads one set, or null (after a warning) when the shared data is not beside the project. */
export function readRankSet(name: RankSetName): RankSet | null {
  return readSharedEval<RankSet>(name);
}
