import { useSignal } from '@preact/signals';
import { useFocusBack } from '@/components/shared/use-focus-back';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { runSearchId } from './run-filters';

/** A deletion asks once more, in place of the button that asked; "Keep" gives that button the focus back. */
export function useDeleteQuestion() {
  const asking = useSignal(false);
  const focusBack = useFocusBack(asking.value);
  return {
    asking: asking.value,
    /** For the button that asks: it gets the focus back after "Keep". */
    askButton: focusBack.askButton,
    ask: () => {
      asking.value = true;
    },
    keep: () => {
      focusBack.decline();
      asking.value = false;
    },
    /** The deletion goes ahead: the focus is the caller's to place, see `deleteFromList`. */
    close: () => {
      asking.value = false;
    },
  };
}

/**
 * After a deletion the buttons that asked for it are gone (and after a notice is dismissed, its
 * button): focus goes to the run list, to the search box where the filters leave none of the runs
 * kept, or to the page's heading once no run is left, so a keyboard user goes on from there, not
 * from the top.
 * Chosen from the model, not from the page: the page may not have drawn the shorter list yet, and
 * a list that still holds runs is the element already there.
 */
export function focusRunList(model: TraceViewerModel): void {
  if (model.runs.value.length > 0 && model.visibleRuns.value.length === 0) return document.getElementById(runSearchId)?.focus();
  const target = model.runs.value.length > 0 ? 'run-list' : 'viewer-title';
  document.querySelector<HTMLElement>(`[data-testid="${target}"]`)?.focus();
}

/**
 * Deletes runs, the focus on the run list while it goes on: the button that asked for it goes at
 * once, and the focus must not fall to the page meanwhile; once done, it goes where `focusRunList` says.
 */
export async function deleteFromList(model: TraceViewerModel, runIds: string[] | 'all'): Promise<void> {
  focusRunList(model);
  await model.deleteRuns(runIds);
  focusRunList(model);
}
