import type { ModelUsage } from '@webmcp-agents/local-agent';
import { modelUsage, usageFigure } from '../usage-figure';

/** The figures a server sends with its last chunks; llama.cpp adds its own `timings`. */
export interface ServerFigures {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  timings?: { prompt_n?: number; prompt_per_second?: number; predicted_n?: number; predicted_per_second?: number };
}

export interface ReplyTiming {
  startedAt: number;
  firstTokenAt: number | undefined;
  endedAt: number;
}

/**
 * The server's token counts, and its speeds where it says them, else the ones measured here. A
 * server that said no counts (one hung up on before its last chunk) gets none here: only a reply
 * that failed or was stopped before its figures came has its streamed pieces counted as its
 * tokens, by the agent (see withStreamedTokens), as a server streams a token a piece.
 */
export function serverUsage(last: ServerFigures, timing: ReplyTiming): ModelUsage {
  const promptTokens = last.usage?.prompt_tokens ?? last.timings?.prompt_n;
  const completionTokens = last.usage?.completion_tokens ?? last.timings?.predicted_n;
  if (timing.firstTokenAt === undefined) return modelUsage({ promptTokens, completionTokens });
  const firstTokenMs = timing.firstTokenAt - timing.startedAt;
  const decodeSeconds = (timing.endedAt - timing.firstTokenAt) / 1000;
  const measuredPrefill = typeof promptTokens === 'number' && promptTokens > 0 && firstTokenMs > 0 ? promptTokens / (firstTokenMs / 1000) : undefined;
  const measuredDecode = typeof completionTokens === 'number' && decodeSeconds > 0 && completionTokens > 1 ? (completionTokens - 1) / decodeSeconds : undefined;
  return modelUsage({
    promptTokens,
    completionTokens,
    timeToFirstTokenMs: firstTokenMs,
    prefillTokensPerSecond: usageFigure(last.timings?.prompt_per_second) ?? measuredPrefill,
    decodeTokensPerSecond: usageFigure(last.timings?.predicted_per_second) ?? measuredDecode,
  });
}
