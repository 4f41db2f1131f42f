// Apart from the viewer's model: the run list narrowed by the person's search, site, outcome and
// what went wrong with its calls, as signals worked out from the runs loaded.
import { computed, type ReadonlySignal } from '@preact/signals';
import type { CallMark } from './call-marks';
import type { TraceRun } from './trace-schema';

/** The outcome filter's value for runs that have not ended. */
export const runningFilter = 'running';

/** What the filter reads: the runs loaded, the search typed, the site, the outcome and the call mark picked (`''`: any). */
export interface RunFilterInputs {
  readonly runs: ReadonlySignal<TraceRun[]>;
  readonly query: ReadonlySignal<string>;
  readonly site: ReadonlySignal<string>;
  readonly outcome: ReadonlySignal<string>;
  readonly calls: ReadonlySignal<string>;
}

/** The sites the runs come from, sorted, and the runs that match the filters. */
export interface RunFilter {
  readonly sites: ReadonlySignal<string[]>;
  readonly visibleRuns: ReadonlySignal<TraceRun[]>;
}

export function createRunFilter(inputs: RunFilterInputs): RunFilter {
  const sites = computed(() => [...new Set(inputs.runs.value.map((run) => run.origin))].sort());
  /**
   * Each run's words in lower case (its request, its answer, what the panel said under it, its
   * error), worked out once a load rather than again at every key of a search.
   */
  const searchedWords = computed(() => inputs.runs.value.map(searchedText));
  const visibleRuns = computed(() => {
    const query = inputs.query.value.trim().toLowerCase();
    const site = inputs.site.value;
    const outcome = inputs.outcome.value;
    const calls = inputs.calls.value;
    const words = query ? searchedWords.value : [];
    return inputs.runs.value.filter(
      (run, index) =>
        (!query || words[index]!.includes(query)) &&
        (!site || run.origin === site) &&
        (!outcome || (run.outcome ?? runningFilter) === outcome) &&
        (!calls || (Array.isArray(run.callMarks) && run.callMarks.includes(calls as CallMark))),
    );
  });
  return { sites, visibleRuns };
}

/** A damaged record's fields may be anything: only text is searched. */
function searchedText(run: TraceRun): string {
  const words = [run.request, run.answer, run.notice, run.error?.message].filter((value): value is string => typeof value === 'string');
  return words.join('\n').toLowerCase();
}
