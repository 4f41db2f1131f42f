import { z } from 'zod/mini';
import { answerExtensionPages, askBackgroundFromPage } from '../../messaging/extension-page-requests';
import { stopDeletedModelLoads } from './stop-deleted-model-loads';
import type { WebLlmRuntime } from './webllm-runtime';

const messageType = 'webllm-models-deleting';

/** Options page → background, before it deletes stored models: `baseUrls` absent for all of them. */
const deletingSchema = z.object({
  type: z.literal(messageType),
  baseUrls: z.optional(z.array(z.string().check(z.maxLength(2_048))).check(z.maxLength(1_000))),
});

/**
 * How long the options page waits for the background to stop a load before it deletes anyway: a
 * download stops at once, but a model being copied into the GPU finishes first (seconds).
 */
const stopWaitMs = 15_000;

/**
 * Options page: asks the background to stop loading the models about to be deleted, and waits
 * until it has (or no background answers, or `stopWaitMs` passed). Never fails: the deletion
 * goes on regardless.
 */
export async function stopLoadsBeforeDeleting(baseUrls: readonly string[] | undefined, waitMs = stopWaitMs): Promise<void> {
  const message: z.infer<typeof deletingSchema> = { type: messageType, ...(baseUrls ? { baseUrls: [...baseUrls] } : {}) };
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    askBackgroundFromPage(message).catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
  ]);
  clearTimeout(timer);
}

/** Background: stops the loads of models the options page is deleting, for the extension's own pages only. */
export function answerModelDeletions(runtime: () => WebLlmRuntime): () => void {
  return answerExtensionPages(
    (message) => (message as { type?: unknown } | null)?.type === messageType,
    async (message) => {
      const parsed = deletingSchema.safeParse(message);
      if (!parsed.success) return { stopped: false };
      return { stopped: await stopDeletedModelLoads(runtime(), parsed.data.baseUrls) };
    },
    { stopped: false },
  );
}
