import { outcomeLabel } from '@/lib/traces/describe-trace';
import { traceOutcomes } from '@/lib/traces/trace-outcomes';
import { runningFilter } from '@/lib/traces/create-run-filter';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { useTypingPause } from '@/components/shared/use-typing-pause';
import { siteLabel } from '@/lib/text/site-label';

/** Search by request text, and filter by site and by how the run ended. */
export function RunFilters({ model }: { model: TraceViewerModel }) {
  return (
    <div class="run-filters">
      <SearchBox model={model} />
      <select aria-label="Site" data-testid="site-filter" value={model.site.value} onChange={(event) => (model.site.value = event.currentTarget.value)}>
        <option value="">All sites</option>
        {model.sites.value.map((site) => (
          <option key={site} value={site}>
            {site ? siteLabel(site) : '(no site)'}
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

/** The search box's id: the list's "Show all runs" hands it the focus. */
export const runSearchId = 'run-search';

/** Shows every key at once; the list follows once typing pauses. */
function SearchBox({ model }: { model: TraceViewerModel }) {
  const { typed, onInput } = useTypingPause((text) => (model.query.value = text));
  return (
    <input
      type="search"
      id={runSearchId}
      dir="auto"
      placeholder="Search requests"
      aria-label="Search requests"
      data-testid="run-search"
      value={typed ?? model.query.value}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
  );
}
