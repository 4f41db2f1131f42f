import { useRef } from 'preact/hooks';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { SafeAnswer } from '@/components/shared/safe-answer';
import { plural } from '@/lib/text/plural';
import { deleteFromList, useDeleteQuestion } from './delete-question';

/** Import a file; export every run; delete every run, or those the filters show. */
export function ViewerToolbar({ model }: { model: TraceViewerModel }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const count = model.runs.value.length;

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (file) await model.importFile(file);
  };

  return (
    <div class="toolbar">
      <input ref={fileInput} type="file" accept="application/json,.json" hidden data-testid="import-file" onChange={(event) => void onFile(event.currentTarget)} />
      {/* Not disabled while a file imports: the focus would leave it for the page. */}
      <button
        type="button"
        aria-disabled={model.importing.value ? 'true' : undefined}
        onClick={() => !model.importing.value && fileInput.current?.click()}
        data-testid="import-button"
      >
        Import…
      </button>
      <button type="button" disabled={count === 0} onClick={() => void model.exportRuns()} data-testid="export-all">
        Export all
      </button>
      <DeleteAllButton model={model} count={count} />
    </div>
  );
}

/**
 * Deleting every run asks once more, with the number of runs. Where the filters narrow the list
 * (one site's runs, say), it deletes the runs they match, those not drawn yet too, and says so.
 */
function DeleteAllButton({ model, count }: { model: TraceViewerModel; count: number }) {
  const question = useDeleteQuestion();
  const shown = model.visibleRuns.value;
  const narrowed = shown.length < count;
  if (!question.asking) {
    return (
      <button type="button" ref={question.askButton} disabled={shown.length === 0} onClick={question.ask} data-testid="delete-all">
        {narrowed ? 'Delete matching' : 'Delete all'}
      </button>
    );
  }
  const confirm = async () => {
    question.close();
    await deleteFromList(model, narrowed ? shown.map((run) => run.id) : 'all');
  };
  // A run still going on is kept (its recorder would only write it back): the count says so.
  const going = shown.filter((run) => run.endedAt === undefined).length;
  return (
    <>
      <button type="button" class="danger" data-testid="confirm-delete-all" onClick={() => void confirm()}>
        Delete {narrowed ? plural(shown.length - going, 'matching run') : plural(shown.length - going, 'run')}
        {going > 0 ? `, not the ${plural(going, 'run')} going on` : ''}
      </button>
      <SafeAnswer onClick={question.keep}>Keep them</SafeAnswer>
    </>
  );
}
