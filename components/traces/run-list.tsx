import { useEffect, useRef, useState } from 'preact/hooks';
import { HiddenCharacters } from '@/components/shared/json-text';
import { formatMoment, outcomeLabel } from '@/lib/traces/describe-trace';
import { figure, plural } from '@/lib/text/plural';
import type { CallMark } from '@/lib/traces/call-marks';
import type { TraceRun } from '@/lib/traces/trace-schema';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { formatDuration } from '@/lib/text/format-duration';
import { runSearchId } from './run-filters';
import { ShowOrExplain } from './show-or-explain';

/**
 * Rows drawn at first, and added each time the person reaches the end of the list: two or three
 * screens. A filter that changes every row drawn redraws them all, so fewer rows answer sooner.
 */
const rowsAtATime = 50;

/**
 * Every kept run that passes the filters, newest first: the first fifty drawn, more as the person
 * scrolls to the end or asks, so that a search stays quick with thousands of runs. Each row says
 * its place among all the runs shown, for a screen reader.
 */
export function RunList({ model }: { model: TraceViewerModel }) {
  const runs = model.visibleRuns.value;
  const openIndex = runs.findIndex((run) => run.id === model.openRunId.value);
  const [drawn, drawMore] = useRowsDrawn(`${model.query.value}\n${model.site.value}\n${model.outcome.value}\n${model.calls.value}`, openIndex);
  const list = useRef<HTMLUListElement>(null);
  // The list is one stop for Tab, the rest of the viewer after it however many runs it holds: the
  // row the focus was last on takes it, or else the open run's; where that row was deleted, the
  // one now in its place; else the first.
  const [lastFocused, setLastFocused] = useState<{ id: string; index: number }>();
  const drawnRuns = runs.slice(0, drawn);
  const isDrawn = (id: string | undefined) => id !== undefined && drawnRuns.some((run) => run.id === id);
  const deleted = lastFocused !== undefined && !model.runs.value.some((run) => run.id === lastFocused.id);
  const inItsPlace = deleted ? drawnRuns[Math.min(lastFocused.index, drawnRuns.length - 1)]?.id : undefined;
  const tabStop = [lastFocused?.id, model.openRunId.value].find(isDrawn) ?? inItsPlace ?? drawnRuns[0]?.id;
  // Where the focus goes once more rows are drawn: the first of them, when the button that asked for them had it.
  const focusRow = useRef<number>();
  useEffect(() => {
    if (focusRow.current === undefined) return;
    list.current?.children[focusRow.current]?.querySelector('button')?.focus();
    focusRow.current = undefined;
  });
  if (!model.loaded.value) return <p class="muted">Loading runs…</p>;
  const unread = model.listUnread.value;
  if (model.runs.value.length === 0 && unread !== undefined) {
    return (
      <p class="notice tone-error" data-testid="runs-unread">
        {`The runs could not be read: ${unread}`}
      </p>
    );
  }
  if (model.runs.value.length === 0) {
    return (
      <p class="muted" data-testid="no-runs">
        No runs yet. Every request from the side panel that reaches the model is recorded here; one that stopped
        before the model loaded (the model could not load, or the agent is off on the site) has no trace.
      </p>
    );
  }
  const showMore = (hadFocus: boolean) => {
    if (hadFocus) focusRow.current = drawn;
    drawMore();
  };
  // Up and Down go from run to run, Home and End to the ends of what is drawn; Down past the last
  // row drawn draws the next ones.
  const moveFocus = (event: KeyboardEvent) => {
    if (!Object.hasOwn(focusMoves, event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>(':scope > li > button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    // The list itself has the focus (a deletion took the focused row away): a key goes to its row that Tab stops at.
    if (at < 0 && document.activeElement === list.current) {
      event.preventDefault();
      return buttons.find((button) => button.tabIndex === 0)?.focus();
    }
    if (at < 0) return;
    event.preventDefault();
    if (event.key === 'ArrowDown' && at === buttons.length - 1 && drawn < runs.length) return showMore(true);
    buttons[focusMoves[event.key]!(at, buttons.length)]?.focus();
  };
  return (
    <>
      {/* A status: a screen reader hears how many runs a search or a filter leaves. */}
      <p class="muted run-count" role="status" data-testid="run-count">
        {runs.length === model.runs.value.length ? plural(runs.length, 'run') : `${figure(runs.length)} of ${plural(model.runs.value.length, 'run')}`}
      </p>
      <UnsortedCallsNote model={model} />
      {runs.length === 0 && (
        <p class="muted no-match" data-testid="no-match">
          No run matches.{' '}
          <button
            type="button"
            data-testid="show-all-runs"
            onClick={() => {
              model.clearFilters();
              // The button goes with the message: the search box is where the person goes on.
              document.getElementById(runSearchId)?.focus();
            }}
          >
            Show all runs
          </button>
        </p>
      )}
      {/* Focusable from script only: focus lands here after a deletion took the focused button away. */}
      <ul class="run-list" tabIndex={-1} data-testid="run-list" ref={list} onKeyDown={moveFocus}>
        {drawnRuns.map((run, index) => {
          const row: RowProps = {
            position: { 'aria-posinset': index + 1, 'aria-setsize': runs.length },
            tabStop: run.id === tabStop,
            onFocus: () => setLastFocused({ id: run.id, index }),
            onOpen: () => void model.open(run.id),
          };
          return (
            <ShowOrExplain key={run.id} fallback={() => <UnreadableRunItem run={run} row={row} />}>
              <RunItem run={run} row={row} selected={run.id === model.openRunId.value} />
            </ShowOrExplain>
          );
        })}
      </ul>
      {drawn < runs.length && <MoreRunsButton notDrawn={runs.length - drawn} onShowMore={showMore} />}
    </>
  );
}

/** Where each key takes the focus, from row `at` of `count` drawn. */
const focusMoves: Record<string, (at: number, count: number) => number> = {
  ArrowDown: (at, count) => Math.min(at + 1, count - 1),
  ArrowUp: (at) => Math.max(at - 1, 0),
  Home: () => 0,
  End: (_at, count) => count - 1,
};

/**
 * How many rows to draw: fifty, more after each `drawMore`, and fifty again whenever the
 * filters change (a search must not draw every row the last one scrolled through). The open run
 * is always drawn, so the list marks it, even one far down opened by its address.
 */
function useRowsDrawn(filters: string, openIndex: number): [number, () => void] {
  // Kept in a ref, not state: a change of filters resets it in the same render, and going back to
  // the last filters must not bring back what they had drawn.
  const asked = useRef({ filters, rows: rowsAtATime });
  const [, redraw] = useState(0);
  if (asked.current.filters !== filters) asked.current = { filters, rows: rowsAtATime };
  const drawn = Math.max(asked.current.rows, openIndex + 1);
  const drawMore = () => {
    asked.current = { filters, rows: drawn + rowsAtATime };
    redraw((passes) => passes + 1);
  };
  return [drawn, drawMore];
}

/** A row's place among the runs shown, whether Tab stops at it, and what focusing and pressing it do. */
interface RowProps {
  position: { 'aria-posinset': number; 'aria-setsize': number };
  tabStop: boolean;
  onFocus: () => void;
  onOpen: () => void;
}

/**
 * Draws the next fifty runs when pressed, or by itself once scrolled into view, unless the focus is
 * on it: Tab there goes on past the list, and Enter draws them. Pressed, the focus moves to the
 * first run it drew, so a keyboard user goes on down the list.
 */
function MoreRunsButton({ notDrawn, onShowMore }: { notDrawn: number; onShowMore: (hadFocus: boolean) => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const latest = useRef(onShowMore);
  latest.current = onShowMore;
  const showMore = () => latest.current(document.activeElement === button.current);
  useEffect(() => {
    const observer = new IntersectionObserver((entries) => {
      if (document.activeElement !== button.current && entries.some((entry) => entry.isIntersecting)) showMore();
    });
    observer.observe(button.current!);
    return () => observer.disconnect();
  }, []);
  return (
    <button type="button" ref={button} data-testid="more-runs" onClick={showMore}>
      Show {plural(Math.min(rowsAtATime, notDrawn), 'more run')} ({figure(notDrawn)} not shown yet)
    </button>
  );
}

function RunItem({ run, row, selected }: { run: TraceRun; row: RowProps; selected: boolean }) {
  const took = run.endedAt !== undefined ? formatDuration(run.endedAt - run.startedAt) : '';
  return (
    <li data-testid="run-item" data-run-id={run.id} data-outcome={run.outcome ?? 'running'} class={selected ? 'selected' : ''} {...row.position}>
      <button type="button" class="run-button" tabIndex={row.tabStop ? 0 : -1} onFocus={row.onFocus} onClick={row.onOpen} aria-current={selected ? 'true' : undefined}>
        <span class="run-request" data-testid="run-request" dir="auto">
          <HiddenCharacters text={run.request || '(empty request)'} />
        </span>
        {/* Two lines, whatever the outcome's word: how it ended and where, then when and how long. */}
        <span class="run-meta run-line" data-testid="run-outcome-line">
          <span class={`outcome outcome-${run.outcome ?? 'running'}`}>{outcomeLabel(run.outcome)}</span>
          {/* An answer may follow a call that failed: the row says so beside it, as the Calls filter finds it. */}
          {run.callMarks && run.callMarks.length > 0 && (
            <span class="run-marks" data-testid="run-marks">
              {run.callMarks.map((mark) => callMarkWords[mark]).join(', ')}
            </span>
          )}
          <span class="run-site" title={run.origin || undefined}>{run.origin || '(no site)'}</span>
          {/* A file's run is no run of this browser, whatever it says it did. */}
          {run.importedAt !== undefined && (
            <span class="run-imported" data-testid="run-imported">
              imported
            </span>
          )}
        </span>
        <span class="run-meta run-line" data-testid="run-time-line">
          <span>{formatMoment(run.startedAt)}</span>
          <span>
            {run.stepCount} step{run.stepCount === 1 ? '' : 's'}
            {took && ` · ${took}`}
          </span>
        </span>
      </button>
    </li>
  );
}

/** A run whose record cannot be drawn is still listed, so it can be opened, exported or deleted. */
function UnreadableRunItem({ run, row }: { run: TraceRun; row: RowProps }) {
  return (
    <li data-testid="run-item" data-run-id={run.id} data-unreadable="true" {...row.position}>
      <button type="button" class="run-button" tabIndex={row.tabStop ? 0 : -1} onFocus={row.onFocus} onClick={row.onOpen}>
        <span class="run-request">{`Run ${String(run.id)}`}</span>
        <span class="run-meta">
          <span>Its record could not be shown: it is damaged, or from another version.</span>
        </span>
      </button>
    </li>
  );
}

/**
 * Runs an earlier version recorded, whose calls it did not sort (see call-marks): a filter by calls
 * leaves them out, which without a word would read as runs where nothing went wrong.
 */
function UnsortedCallsNote({ model }: { model: TraceViewerModel }) {
  if (!model.calls.value) return null;
  const unsorted = model.runs.value.filter((run) => !Array.isArray(run.callMarks)).length;
  if (unsorted === 0) return null;
  return (
    <p class="muted run-count" data-testid="calls-unsorted">
      {`${plural(unsorted, 'run')} from an earlier version ${unsorted === 1 ? 'is' : 'are'} left out: ${unsorted === 1 ? 'its calls were' : 'their calls were'} not sorted then.`}
    </p>
  );
}

/** What went wrong with a run's calls, in its row: short, beside how the run ended. */
const callMarkWords: Record<CallMark, string> = {
  failed: 'tool failed',
  declined: 'call declined',
  refused: 'bad call',
};
