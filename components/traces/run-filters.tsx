import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { outcomeLabel } from '@/lib/traces/describe-trace';
import { traceOutcomes } from '@/lib/traces/trace-outcomes';
import { runningFilter } from '@/lib/traces/create-run-filter';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

/** Search by request text, and filter by site and by how the run ended. */
export function RunFilters({ model }: { model: TraceViewerModel }) {
  return (
    <div class="run-filters">
      <SearchBox model={model} />
      <select aria-label="Site" data-testid="site-filter" value={model.site.value} onChange={(event) => (model.site.value = event.currentTarget.value)}>
        <option value="">All sites</option>
        {model.sites.value.map((site) => (
          <option key={site} value={site}>
            {site || '(no site)'}
          </option>
        ))}
      </select>
      <select aria-label="Outcome" data-testid="outcome-filter" value={model.outcome.value} onChange={(event) => (model.outcome.value = event.currentTarget.value)}>
        <option value="">Any outcome</option>
        {traceOutcomes.map((outcome) => (
          <option key={outcome} value={outcome}>
            {outcomeLabel(outcome)}
          </option>
        ))}
        <option value={runningFilter}>{outcomeLabel(undefined)}</option>
      </select>
    </div>
  );
}

/** How long the search waits for the next key before the list follows. */
const searchPauseMs = 100;

/**
 * Shows every key at once; the list follows once typing pauses, so that a run of keys redraws it
 * once, not at every key. What is typed is held here meanwhile: no key is lost, and the box never
 * goes back to an older text.
 */
function SearchBox({ model }: { model: TraceViewerModel }) {
  const typed = useSignal<string | undefined>(undefined);
  const pause = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(pause.current), []);
  const onInput = (text: string) => {
    typed.value = text;
    clearTimeout(pause.current);
    pause.current = setTimeout(() => {
      model.query.value = text;
      typed.value = undefined;
    }, searchPauseMs);
  };
  return (
    <input
      type="search"
      dir="auto"
      placeholder="Search requests"
      aria-label="Search requests"
      data-testid="run-search"
      value={typed.value ?? model.query.value}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
  );
}
