import { useSignal, type Signal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { StoredModel } from '@/lib/engines/webllm/model-storage';
import { formatBytes } from '@/lib/text/format-bytes';
import { plural } from '@/lib/text/plural';
import { SafeAnswer } from '@/components/shared/safe-answer';
import { useFocusBack } from '@/components/shared/use-focus-back';
import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';

/** The WebLLM models stored on this computer, the space each takes, and the quota left. */
export function ModelStorageSection({ model }: { model: OptionsModel }) {
  const stored = model.storedModels.value;
  const quota = model.storageQuota.value;
  // The model whose deletion waits for a yes: a gigabyte or more must not go in one stray click.
  const confirmingDelete = useSignal<string | undefined>(undefined);
  return (
    <section aria-labelledby="storage-heading" data-testid="model-storage">
      <h2 id="storage-heading" tabIndex={-1} data-place="models-stored">
        Models on this computer
      </h2>
      {stored === undefined && <p class="muted">Reading the stored models…</p>}
      {stored?.length === 0 && (
        <p class="muted">
          No WebLLM model is stored yet
          {model.webGpu.value?.available ? ": the first request with WebLLM downloads one, or WebLLM's Download now does." : '.'}
        </p>
      )}
      {stored && stored.length > 0 && (
        <>
          <table>
            <tbody>
              {stored.map((entry) => (
                <StoredModelRow key={entry.baseUrl} model={model} entry={entry} confirmingDelete={confirmingDelete} />
              ))}
            </tbody>
          </table>
          <DeleteAll model={model} stored={stored} />
        </>
      )}
      {quota?.quota !== undefined && (
        <p class="muted" data-testid="storage-quota">
          This extension uses {formatBytes(quota.usage ?? 0)} of the {formatBytes(quota.quota)} Chrome allows it;{' '}
          {formatBytes(Math.max(0, quota.quota - (quota.usage ?? 0)))} left.
        </p>
      )}
      {/* In the page from the start, only its words changing, so that a screen reader reads them. */}
      <p class="muted storage-status" role="status" data-testid="storage-status">
        {model.storageDeleted.value}
      </p>
      <FailureBox failure={model.storageFailure.value} />
    </section>
  );
}

interface StoredModelRowProps {
  model: OptionsModel;
  entry: StoredModel;
  /** Shared by the rows, so that one question shows at a time. */
  confirmingDelete: Signal<string | undefined>;
}

/** One stored model, with a Delete that asks once more in place. */
function StoredModelRow({ model, entry, confirmingDelete }: StoredModelRowProps) {
  const asking = confirmingDelete.value === entry.baseUrl;
  const focusBack = useFocusBack(asking);
  const row = useHeadingWhenGone<HTMLTableRowElement>();
  // From Yes until the list is read again without it (a second or more for gigabytes).
  const deleting = useSignal(false);
  const deleteIt = async () => {
    confirmingDelete.value = undefined;
    deleting.value = true;
    // The question goes, and the row with its model: the heading is what stays, as after Delete all.
    document.getElementById('storage-heading')?.focus();
    await model.deleteModel(entry);
    deleting.value = false;
  };
  return (
    <tr data-testid="stored-model" ref={row} aria-busy={deleting.value ? 'true' : undefined}>
      <td>{entry.label}</td>
      <td class="number">{formatBytes(entry.bytes)}</td>
      <td>{entry.complete ? '' : <span class="badge">incomplete download</span>}</td>
      <td>
        {deleting.value ? (
          <span class="muted">Deleting…</span>
        ) : asking ? (
          <DeleteQuestion
            label={entry.label}
            onYes={deleteIt}
            onNo={() => {
              focusBack.decline();
              confirmingDelete.value = undefined;
            }}
          />
        ) : (
          <button type="button" ref={focusBack.askButton} onClick={() => (confirmingDelete.value = entry.baseUrl)} aria-label={`Delete ${entry.label}`}>
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}

/** A model's "Delete it?", in its row. */
function DeleteQuestion({ label, onYes, onNo }: { label: string; onYes(): void; onNo(): void }) {
  return (
    <span class="row">
      Delete it?
      <button type="button" aria-label={`Yes, delete ${label}`} onClick={onYes}>
        Yes
      </button>
      <SafeAnswer onClick={onNo}>No</SafeAnswer>
    </span>
  );
}

/** "Delete all", which asks once more with the count and the space it frees; it goes with the last model. */
function DeleteAll({ model, stored }: { model: OptionsModel; stored: readonly StoredModel[] }) {
  const confirming = useSignal(false);
  // From Yes until the list is read again: a load of a model stops first, which may take seconds.
  const deleting = useSignal(false);
  const focusBack = useFocusBack(confirming.value);
  const question = useHeadingWhenGone<HTMLParagraphElement>();
  if (deleting.value) return <p class="muted" aria-busy="true">Deleting…</p>;
  if (!confirming.value) {
    return (
      <button type="button" ref={focusBack.askButton} onClick={() => (confirming.value = true)}>
        Delete all
      </button>
    );
  }
  const total = stored.reduce((sum, entry) => sum + entry.bytes, 0);
  return (
    <p class="row" ref={question}>
      {stored.length === 1 ? 'Delete the one model' : `Delete all ${plural(stored.length, 'model')}`} ({formatBytes(total)})?
      <button
        type="button"
        onClick={async () => {
          confirming.value = false;
          deleting.value = true;
          // The question goes, and "Delete all" with the models: the heading is what stays.
          document.getElementById('storage-heading')?.focus();
          await model.deleteAllModels();
          deleting.value = false;
        }}
      >
        Yes, delete all
      </button>
      <SafeAnswer
        onClick={() => {
          focusBack.decline();
          confirming.value = false;
        }}
      >
        No
      </SafeAnswer>
    </p>
  );
}

/**
 * A row, or a question, that goes (its model deleted in another tab, and this page reading the
 * list again) while it has the focus leaves the focus on the section's heading, not on the page
 * body. Hook cleanups run before the element leaves the page.
 */
function useHeadingWhenGone<T extends HTMLElement>() {
  const question = useRef<T>(null);
  useLayoutEffect(
    () => () => {
      if (question.current?.contains(document.activeElement)) document.getElementById('storage-heading')?.focus();
    },
    [],
  );
  return question;
}
