import type { ModelUsage } from './language-model';

/**
 * The tokens a reply wrote: the engine's count, or where it gave none (WebLLM without its usage, a
 * reply that failed or was stopped before its figures came) the pieces it streamed, one token each
 * as engines stream them.
 */
export function tokensWritten(engineCount: number | undefined, piecesStreamed: number): number {
  return engineCount ?? piecesStreamed;
}

/** A reply's figures with the tokens it wrote counted by its streamed pieces, where the engine gave no count and it streamed any. */
export function withStreamedTokens(usage: ModelUsage, piecesStreamed: number): ModelUsage {
  if (usage.completionTokens !== undefined || piecesStreamed === 0) return usage;
  return { ...usage, completionTokens: tokensWritten(undefined, piecesStreamed) };
}
