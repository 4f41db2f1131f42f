import { signal, type ReadonlySignal } from '@preact/signals';
import { listStoredModels, type CacheStorageLike, type StoredModel } from '@/lib/engines/webllm/model-storage';
import { deleteModelsInBackground } from '@/lib/engines/webllm/model-deletion-messages';
import { tellModelsChanged } from '@/lib/agent/models-changed-message';
import type { Failure } from '@/lib/engines/describe-failure';
import { describeStorageFailure, type StorageAction } from './describe-storage-failure';
import type { OptionsDependencies } from './options-types';

/**
 * The WebLLM models stored in this browser, the room they take, and why the list could not be read
 * or a model not deleted: a person freeing disk space sees what is there and what went wrong.
 */
export function createStoredModels(dependencies: Pick<OptionsDependencies, 'caches' | 'estimateStorage' | 'deleteModels' | 'modelsChanged'>) {
  const models = signal<readonly StoredModel[] | undefined>(undefined);
  const quota = signal<{ usage?: number; quota?: number } | undefined>(undefined);
  const failure = signal<Failure | undefined>(undefined);
  // What the last deletion did, in words a screen reader says: the row goes from under its focus.
  const deleted = signal('');
  // Where no browser storage exists (a test's page), the list is empty.
  const cacheStorage = (): CacheStorageLike => dependencies.caches ?? globalThis.caches;
  // The service worker deletes them: it stops a download that would write the files again first.
  const deleteModels = dependencies.deleteModels ?? ((baseUrls: readonly string[] | undefined) => deleteModelsInBackground(baseUrls, cacheStorage()));

  async function refresh(): Promise<void> {
    const storage = cacheStorage();
    try {
      models.value = storage ? await listStoredModels(storage) : [];
      failure.value = undefined;
    } catch (error) {
      failure.value = failed({ kind: 'read' }, error);
    }
    const estimate = dependencies.estimateStorage ?? (() => navigator.storage.estimate());
    quota.value = await estimate().catch(() => undefined);
  }

  // The browser's own error goes to the console too, in full.
  function failed(action: StorageAction, error: unknown): Failure {
    console.warn(`The stored WebLLM models (${action.kind}):`, error);
    return describeStorageFailure(action, error);
  }

  /**
   * Deletes, then reads the list again and tells the side panels (some files may be gone though
   * the deletion failed); a failure to delete is shown after that, which would clear it.
   */
  async function deleteThen(action: StorageAction, remove: () => Promise<void>): Promise<void> {
    deleted.value = '';
    const deleteFailure = await remove().then(
      () => undefined,
      (error: unknown) => failed(action, error),
    );
    if (!deleteFailure) deleted.value = action.kind === 'delete' ? `Deleted ${action.label}.` : 'Deleted every stored model.';
    void (dependencies.modelsChanged ?? tellModelsChanged)();
    await refresh();
    if (deleteFailure) failure.value = deleteFailure;
  }

  return {
    models: models as ReadonlySignal<readonly StoredModel[] | undefined>,
    quota: quota as ReadonlySignal<{ usage?: number; quota?: number } | undefined>,
    failure: failure as ReadonlySignal<Failure | undefined>,
    deleted: deleted as ReadonlySignal<string>,
    refresh,
    async deleteModel(model: StoredModel): Promise<void> {
      await deleteThen({ kind: 'delete', label: model.label }, () => deleteModels([model.baseUrl]));
    },
    async deleteAll(): Promise<void> {
      await deleteThen({ kind: 'delete-all' }, () => deleteModels(undefined));
    },
  };
}
