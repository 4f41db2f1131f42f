import type { ModelUsage } from '@webmcp-agents/local-agent';

/**
 * A count, speed or time an engine reported, or undefined when it is no real figure: WebLLM
 * divides 0 by 0 for a reply that ends on its first token, and a server's JSON may say anything.
 * Every panel and trace must still read the status these figures go into.
 */
export function usageFigure(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The usage of one reply: each figure that is a real one, speeds and times to a tenth. */
export function modelUsage(figures: { [Name in keyof ModelUsage]: unknown }): ModelUsage {
  const usage: ModelUsage = {};
  for (const name of ['promptTokens', 'completionTokens'] as const) {
    const value = usageFigure(figures[name]);
    if (value !== undefined) usage[name] = value;
  }
  for (const name of ['timeToFirstTokenMs', 'prefillTokensPerSecond', 'decodeTokensPerSecond'] as const) {
    const value = usageFigure(figures[name]);
    if (value !== undefined) usage[name] = Math.round(value * 10) / 10;
  }
  return usage;
}
