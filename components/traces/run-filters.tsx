import { outcomeLabel } from '@/lib/traces/describe-trace';
import { callMarks, type CallMark } from '@/lib/traces/call-marks';
import { traceOutcomes } from '@/lib/traces/trace-outcomes';
import { runningFilter } from '@/lib/traces/create-run-filter';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { useTypingPause } from '@/components/shared/use-typing-pause';
import { siteLabel } from '@/lib/text/site-label';

/** Search by the runs' words, and filter by site, by how the run ended and by what went wrong with its calls. */
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
      <select aria-label="Calls" class="calls-filter" data-testid="calls-filter" value={model.calls.value} onChange={(event) => (model.calls.value = event.currentTarget.value)}>
        <option value="">Any calls</option>
        {callMarks.map((mark) => (
          <option key={mark} value={mark}>
            {callMarkLabels[mark]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Each call mark as the filter offers it. */
const callMarkLabels: Record<CallMark, string> = {
  failed: 'A tool failed',
  declined: 'A call was declined',
  refused: 'The model got a call wrong',
};

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
      placeholder="Search requests and answers"
      aria-label="Search requests and answers"
      data-testid="run-search"
      value={typed ?? model.query.value}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
  );
}
