// Apart from the viewer's model: the run list narrowed by the person's search, site and outcome,
// as signals worked out from the runs loaded.
import { computed, type ReadonlySignal } from '@preact/signals';
import type { TraceRun } from './trace-schema';

/** The outcome filter's value for runs that have not ended. */
export const runningFilter = 'running';

/** What the filter reads: the runs loaded, the search typed, the site and the outcome picked (`''`: any). */
export interface RunFilterInputs {
  readonly runs: ReadonlySignal<TraceRun[]>;
  readonly query: ReadonlySignal<string>;
  readonly site: ReadonlySignal<string>;
  readonly outcome: ReadonlySignal<string>;
}

/** The sites the runs come from, sorted, and the runs that match the filters. */
export interface RunFilter {
  readonly sites: ReadonlySignal<string[]>;
  readonly visibleRuns: ReadonlySignal<TraceRun[]>;
}

export function createRunFilter(inputs: RunFilterInputs): RunFilter {
  const sites = computed(() => [...new Set(inputs.runs.value.map((run) => run.origin))].sort());
  /** Each run's request in lower case, worked out once a load rather than again at every key of a search. */
  // A damaged record's request may be anything: only text is searched.
  const searchedRequests = computed(() => inputs.runs.value.map((run) => (typeof run.request === 'string' ? run.request.toLowerCase() : '')));
  const visibleRuns = computed(() => {
    const query = inputs.query.value.trim().toLowerCase();
    const site = inputs.site.value;
    const outcome = inputs.outcome.value;
    const requests = query ? searchedRequests.value : [];
    return inputs.runs.value.filter(
      (run, index) =>
        (!query || requests[index]!.includes(query)) && (!site || run.origin === site) && (!outcome || (run.outcome ?? runningFilter) === outcome),
    );
  });
  return { sites, visibleRuns };
}
