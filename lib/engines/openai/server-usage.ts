import type { ModelUsage } from '@webmcp-agents/local-agent';

/** The figures a server sends with its last chunks; llama.cpp adds its own `timings`. */
export interface ServerFigures {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  timings?: { prompt_n?: number; prompt_per_second?: number; predicted_n?: number; predicted_per_second?: number };
}

export interface ReplyTiming {
  startedAt: number;
  firstTokenAt: number | undefined;
  endedAt: number;
  deltas: number;
}

/** The server's token counts, and its speeds where it says them, else the ones measured here. */
export function serverUsage(last: ServerFigures, timing: ReplyTiming): ModelUsage {
  const promptTokens = last.usage?.prompt_tokens ?? last.timings?.prompt_n;
  const completionTokens = last.usage?.completion_tokens ?? last.timings?.predicted_n ?? timing.deltas;
  const usage: ModelUsage = { completionTokens };
  if (promptTokens !== undefined) usage.promptTokens = promptTokens;
  if (timing.firstTokenAt === undefined) return usage;
  const firstTokenMs = timing.firstTokenAt - timing.startedAt;
  const decodeSeconds = (timing.endedAt - timing.firstTokenAt) / 1000;
  usage.timeToFirstTokenMs = round(firstTokenMs);
  const prefill = last.timings?.prompt_per_second ?? (promptTokens && firstTokenMs > 0 ? promptTokens / (firstTokenMs / 1000) : undefined);
  if (prefill !== undefined) usage.prefillTokensPerSecond = round(prefill);
  const decode = last.timings?.predicted_per_second ?? (decodeSeconds > 0 && completionTokens > 1 ? (completionTokens - 1) / decodeSeconds : undefined);
  if (decode !== undefined) usage.decodeTokensPerSecond = round(decode);
  return usage;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
