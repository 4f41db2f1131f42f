import { useEffect, useRef } from 'preact/hooks';
import { cutText } from '@/lib/local-agent/cut-text';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { NoticeBanner } from './notice-banner';
import { OpenedRunAnnouncer } from './opened-run-announcer';
import { RetentionForm } from './retention-form';
import { RunDetail } from './run-detail';
import { RunFilters } from './run-filters';
import { RunList } from './run-list';
import { ViewerToolbar } from './viewer-toolbar';

/** The trace viewer: the runs on the left, the open run on the right; `initialRunId`, the run its address opened. */
export function TraceViewerApp({ model, initialRunId }: { model: TraceViewerModel; initialRunId?: string }) {
  // A damaged record's request may be anything: only text names the tab.
  const opened = model.openTrace.value?.run.request;
  const request = typeof opened === 'string' ? opened : undefined;
  // The run the address opened, until its heading took the focus (see RunDetail).
  const arrival = useRef(initialRunId);
  // Each turn's "Trace" link opens a tab: its title names the run, so the tabs, and a screen
  // reader's list of them, tell one run from another.
  useEffect(() => {
    const words = request?.replace(/\s+/g, ' ').trim() ?? '';
    const shown = cutText(words, 60);
    document.title = words ? `${shown}${shown.length < words.length ? '…' : ''} – Agent traces` : 'Agent traces';
  }, [request]);
  return (
    <div class="viewer">
      <header class="viewer-header">
        {/* Focusable from script only: focus lands here when a deletion leaves no run to go to. */}
        <h1 tabIndex={-1} data-testid="viewer-title">
          Agent traces
        </h1>
        <ViewerToolbar model={model} />
      </header>
      <NoticeBanner model={model} />
      <OpenedRunAnnouncer model={model} {...(initialRunId ? { initialRunId } : {})} />
      <div class="viewer-body">
        <nav class="runs-pane" aria-label="Runs">
          <RunFilters model={model} />
          <RunList model={model} />
          <RetentionForm model={model} />
        </nav>
        <main class="detail-pane">
          {/* With no runs, the list says how they come: nothing to choose here. */}
          {model.openRunId.value ? <RunDetail model={model} arrival={arrival} /> : model.runs.value.length > 0 && <p class="muted detail-empty">Choose a run to see its steps.</p>}
        </main>
      </div>
    </div>
  );
}
