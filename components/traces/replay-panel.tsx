import type { Ref } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { plural } from '@/lib/text/plural';
import { firstDivergentStep } from '@/lib/traces/find-divergences';
import type { ReplayState } from '@/lib/traces/replay-state';
import type { ReplayTab } from '@/lib/traces/trace-protocol';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { DivergenceList } from './divergence-list';
import { ReplayConfirm } from './replay-confirm';
import { traceAddress } from '@/lib/traces/trace-address';
import { useSaidOnce } from '@/components/shared/use-said-once';

/** Replays the open run in a tab with the recorded replies, and says where it went differently. */
export function ReplayPanel({ model }: { model: TraceViewerModel }) {
  const run = model.openTrace.value?.run;
  const runId = run?.id;
  useEffect(() => {
    if (runId) void model.loadReplayTabs();
  }, [model, runId]);
  // A question answered, or withdrawn as its tab left the site, goes away: the focus moves to this button (Cancel while the replay goes on, Replay once it stopped).
  const replayButton = useRef<HTMLButtonElement>(null);
  if (!run) return null;
  const state = model.replay.value;
  return (
    <section class="replay" data-testid="replay-panel" data-status={state.status}>
      <h2>Replay</h2>
      <p class="muted">
        Runs this request again in a tab, with the model's recorded replies and the page's tools as they are now. Tools that are not read-only
        wait for your yes. The replay stops if the tab leaves the site it started on.
      </p>
      <div class="replay-controls">
        <ReplayTabPicker model={model} origin={run.origin} runTabId={run.importedAt === undefined ? run.tabId : undefined} />
        <button type="button" onClick={() => void model.refreshReplayTabs()} data-testid="replay-refresh">
          Refresh tabs
        </button>
        <ReplayButton model={model} button={replayButton} />
      </div>
      {/* Always in the page, so that a screen reader hears it as the chosen tab goes. */}
      <p class="muted" role="status" data-testid="replay-tab-left">
        {model.replayTabLeft.value !== undefined && model.replayTabs.value.length > 0 ? 'The tab chosen closed, or no longer offers tools: choose another.' : ''}
      </p>
      <ReplayStatus model={model} onAnswered={() => replayButton.current?.focus()} />
      <ReplayAnnouncer state={state} />
    </section>
  );
}

/**
 * Replay, or Cancel while it runs. One button, not two, so that the focus it holds after a question
 * stays on it when the replay ends.
 */
function ReplayButton({ model, button }: { model: TraceViewerModel; button: Ref<HTMLButtonElement> }) {
  const running = model.replay.value.status === 'running';
  return (
    <button
      type="button"
      ref={button}
      class={running ? undefined : 'primary'}
      disabled={!running && model.replayTabId.value === undefined}
      onClick={() => (running ? model.cancelReplay() : model.startReplay())}
      data-testid={running ? 'replay-cancel' : 'replay-start'}
    >
      {running ? 'Cancel' : 'Replay'}
    </button>
  );
}

/** The open tabs whose page offers tools; one on another site than the run's says so. */
/** `runTabId`: the tab the run was made in, where it is this browser's (not an imported run's). */
function ReplayTabPicker({ model, origin, runTabId }: { model: TraceViewerModel; origin: string; runTabId: number | undefined }) {
  const tabs = model.replayTabs.value;
  if (tabs.length === 0) {
    return (
      <span class="muted" data-testid="replay-no-tabs">
        No open tab offers tools. Open {origin || 'the page'} in a tab: it shows here once its page offers them.
      </span>
    );
  }
  return (
    <select
      aria-label="Tab to replay in"
      data-testid="replay-tab"
      value={model.replayTabId.value ?? ''}
      onChange={(event) => model.chooseReplayTab(Number(event.currentTarget.value))}
    >
      {model.replayTabId.value === undefined && <option value="">Choose a tab</option>}
      {tabs.map((tab) => (
        <option key={tab.tabId} value={tab.tabId}>
          {tabLabel(tab, origin, tab.tabId === runTabId)}
        </option>
      ))}
    </select>
  );
}

/**
 * A tab as a person knows it, never by its internal id: what the browser says first (another site
 * than the run's, its address without the query string and fragment, as traces keep addresses, its
 * tools, whether the run was made in it, which tells apart tabs whose addresses differ only in what
 * is not shown), then the page's own title, cut short. The title is the page's words, so it comes
 * last, where it can neither hide the rest nor pass for it.
 */
function tabLabel(tab: ReplayTab, runOrigin: string, runsTab: boolean): string {
  const title = tab.title && tab.title.length > tabTitleCharacters ? `${tab.title.slice(0, tabTitleCharacters - 1)}…` : tab.title;
  return [tab.origin === runOrigin ? '' : '(another site)', traceAddress(tab.url), plural(tab.toolCount, 'tool'), runsTab ? "the run's own tab" : '', title].filter(Boolean).join(' · ');
}

const tabTitleCharacters = 60;

/** A replay the person cancelled: what it ran before Cancel is not undone. */
const cancelledWords = 'Replay cancelled. What it ran before stays done in the tab.';

/**
 * Says how the replay goes, and how it ended. Mounted before the replay starts, so that a screen
 * reader hears each change of its text; the words go once said, as the result shows on the page.
 */
function ReplayAnnouncer({ state }: { state: ReplayState }) {
  const words = useSaidOnce(announcementFor(state));
  return (
    <p class="visually-hidden" aria-live="polite" data-testid="replay-announcer">
      {words}
    </p>
  );
}

/**
 * What the polite live region says: that the replay runs, then how it went. Not each step's
 * progress, which changes several times in a tenth of a second (a screen reader queues or drops
 * such a burst); a question takes the focus and is said as it comes.
 */
function announcementFor(state: ReplayState): string {
  switch (state.status) {
    case 'idle':
      return state.cancelled ? cancelledWords : '';
    case 'running':
      return 'Replaying the run…';
    case 'failed':
      return `The replay failed: ${state.message}`;
    case 'done':
      return resultText(state);
  }
}

function resultText(state: Extract<ReplayState, { status: 'done' }>): string {
  const first = firstDivergentStep(state.divergences);
  const count = state.divergences.length;
  const how =
    first === undefined
      ? `The replay went as recorded (${plural(state.stepCount, 'step')}).`
      : `The replay went differently at step ${first}: ${plural(count, 'difference')}.`;
  return state.stopped ? `${state.stopped} ${how}` : how;
}

function ReplayStatus({ model, onAnswered }: { model: TraceViewerModel; onAnswered: () => void }) {
  const state = model.replay.value;
  switch (state.status) {
    case 'idle':
      return state.cancelled ? (
        <p class="muted" data-testid="replay-cancelled">
          {cancelledWords}
        </p>
      ) : null;
    case 'running':
      return (
        <div>
          <p class="replay-progress" data-testid="replay-progress">
            {state.progress}…
          </p>
          {state.confirm && <ReplayConfirm model={model} call={state.confirm} onAnswered={onAnswered} />}
        </div>
      );
    case 'failed':
      return (
        <p class="notice tone-error" data-testid="replay-error">
          {state.message}
        </p>
      );
    case 'done': {
      const first = firstDivergentStep(state.divergences);
      return (
        <div data-testid="replay-result" data-divergences={state.divergences.length} data-first-step={first ?? ''}>
          {/* Kept as the tabs change (one closes, the page goes): it says which replay it was. */}
          {state.ran && (
            <p class="muted" data-testid="replay-ran">
              Last replay, in <span class="replay-url">{traceAddress(state.ran.url)}</span> at {clockTime(state.ran.at)}:
            </p>
          )}
          <p class={first === undefined ? 'replay-same' : 'replay-different'}>{resultText(state)}</p>
          {state.divergences.length > 0 && <DivergenceList divergences={state.divergences} />}
        </div>
      );
    }
  }
}

let clockFormat: Intl.DateTimeFormat | undefined;

/** The time of day a replay ended, to the second, in the person's own format: it ended while the viewer was open. */
function clockTime(time: number): string {
  clockFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
  return clockFormat.format(time);
}
