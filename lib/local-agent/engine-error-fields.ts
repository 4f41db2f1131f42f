/** What an engine's error may say beyond its message (see LanguageModel): read from any thrown value. */
export interface EngineErrorFields {
  /** What went wrong, in the engine's words: `'context-full'` and `'reply-cut-off'` steer the run. */
  code?: string;
  /** What the person can do about it. */
  hint?: string;
  /** The model's context in tokens, where a `'context-full'` error knows it. */
  contextTokens?: number;
  /** A server's own limit on the prompt alone, where a `'context-full'` error comes of it rather than of the model's context. */
  promptLimit?: number;
}

/** The fields an engine's error carries, each kept only where it has the type it should. */
export function engineErrorFields(error: unknown): EngineErrorFields {
  if (typeof error !== 'object' || error === null) return {};
  const { code, hint, contextTokens, promptLimit } = error as { code?: unknown; hint?: unknown; contextTokens?: unknown; promptLimit?: unknown };
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof hint === 'string' ? { hint } : {}),
    ...(isCount(contextTokens) ? { contextTokens } : {}),
    ...(isCount(promptLimit) ? { promptLimit } : {}),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
