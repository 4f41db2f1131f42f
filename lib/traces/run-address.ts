import { effect, type ReadonlySignal } from '@preact/signals';
import type { StoredTrace } from './trace-schema';

interface AddressBar {
  readonly location: { readonly href: string };
  readonly history: { replaceState(data: unknown, unused: string, url: URL): void };
}

/**
 * Keeps the viewer's address naming the open run (`?run=<id>`), so it can be reloaded or shared
 * between tabs; a run no longer stored (deleted, or removed by retention) is named no more, one
 * that could not be read for a moment still is.
 * Returns how to stop.
 */
export function followRunInAddress(view: { openRunId: ReadonlySignal<string | undefined>; openTrace: ReadonlySignal<StoredTrace | null | undefined> }, page: AddressBar): () => void {
  return effect(() => {
    const runId = view.openTrace.value === null ? undefined : view.openRunId.value;
    const url = new URL(page.location.href);
    if (runId) url.searchParams.set('run', runId);
    else url.searchParams.delete('run');
    if (url.href !== page.location.href) page.history.replaceState(null, '', url);
  });
}
