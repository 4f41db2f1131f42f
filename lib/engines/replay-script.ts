import { storage } from 'wxt/utils/storage';
import { z } from 'zod';

/**
 * Recorded model replies for the replay engine: set by tests, or by hand. The trace viewer's replay
 * does not read it: it plays a trace's own replies through `createReplayEngine`.
 */
export const replayScriptSchema = z.object({
  replies: z.array(z.string()),
  chunkSize: z.number().int().min(1).max(10_000).optional(),
  delayMs: z.number().min(0).max(10_000).optional(),
});

export type ReplayScript = z.infer<typeof replayScriptSchema>;

export const replayScriptItem = storage.defineItem<ReplayScript>('local:replayScript', {
  fallback: { replies: [] },
});
