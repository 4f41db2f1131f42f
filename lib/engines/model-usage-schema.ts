import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';

/**
 * A reply's figures (`ModelUsage`) as they cross from the worker or are read back from a stored
 * trace: each one the engine gave, none required.
 */
export const modelUsageSchema = lazySchema(() =>
  z.object({
    promptTokens: z.number().optional(),
    completionTokens: z.number().optional(),
    timeToFirstTokenMs: z.number().optional(),
    prefillTokensPerSecond: z.number().optional(),
    decodeTokensPerSecond: z.number().optional(),
  }),
);
