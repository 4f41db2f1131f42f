import { z } from 'zod/mini';
import { errorNameAndMessage } from '../../messaging/error-message';
import { answerExtensionPages, askBackgroundFromPage } from '../../messaging/extension-page-requests';
import { deleteModelsOnceStopped } from './delete-models-once-stopped';
import { deleteStoredModels, type CacheStorageLike } from './model-storage';
import type { WebLlmRuntime } from './webllm-runtime';
import { namedError } from '../../messaging/named-error';

const messageType = 'webllm-models-delete';

/** Options page → background: delete stored models, `baseUrls` absent for all of them. */
const deleteSchema = z.object({
  type: z.literal(messageType),
  baseUrls: z.optional(z.array(z.string().check(z.maxLength(2_048))).check(z.maxLength(1_000))),
});

/** Background → options page: done, or the browser's error, by name (a QuotaExceededError, say) and message. */
const answerSchema = z.union([
  z.object({ deleted: z.literal(true) }),
  z.object({ deleted: z.literal(false), name: z.string(), message: z.string() }),
]);
type DeletionAnswer = z.infer<typeof answerSchema>;

/**
 * Options page: has the service worker delete stored models (`baseUrls`; undefined for all), once
 * no load of them is under way (see deleteModelsOnceStopped). Fails with the browser's error. Where
 * no service worker answers, the page deletes them itself.
 */
export async function deleteModelsInBackground(baseUrls: readonly string[] | undefined, cacheStorage: CacheStorageLike): Promise<void> {
  const message: z.infer<typeof deleteSchema> = { type: messageType, ...(baseUrls ? { baseUrls: [...baseUrls] } : {}) };
  const answer = answerSchema.safeParse(await askBackgroundFromPage(message).catch(() => undefined));
  if (!answer.success) return deleteStoredModels(baseUrls, cacheStorage);
  if (!answer.data.deleted) throw namedError(answer.data.name, answer.data.message);
}

/** Background: deletes the stored models the options page asks it to, for the extension's own pages only. */
export function answerModelDeletions(runtime: () => WebLlmRuntime, cacheStorage: () => CacheStorageLike = () => globalThis.caches): () => void {
  const refusal: DeletionAnswer = { deleted: false, name: 'SecurityError', message: "Only the extension's own pages may delete its models" };
  return answerExtensionPages(
    (message) => (message as { type?: unknown } | null)?.type === messageType,
    async (message): Promise<DeletionAnswer> => {
      const parsed = deleteSchema.safeParse(message);
      if (!parsed.success) return { deleted: false, name: 'TypeError', message: 'The request to delete models was malformed' };
      try {
        await deleteModelsOnceStopped(runtime(), parsed.data.baseUrls, cacheStorage());
        return { deleted: true };
      } catch (error) {
        return { deleted: false, ...errorNameAndMessage(error) };
      }
    },
    refusal,
  );
}
