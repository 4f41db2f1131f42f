import { useComputed } from '@preact/signals';
import type { EngineStatus, Turn } from '@/lib/agent/session-state';
import { isServerEngine } from '@/lib/engines/engine-labels';
import { findCatalogModel, modelLabel } from '@/lib/engines/model-catalog';
import { formatSizeFromMegabytes } from '@/lib/text/format-bytes';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { GoToTabButton } from './go-to-tab-button';
import { OpenOptionsButton } from './open-options-button';
import { FirstWordWait, QuietReply } from './first-word-wait';
import { AddressText } from '@/components/shared/address-text';
import { HiddenCharacters } from '@/components/shared/json-text';

// An error is said by when it came (errorLabels); idle, by whether a request came already.
const stateLabels: Record<Exclude<EngineStatus['state'], 'error' | 'idle'>, string> = {
  loading: 'Loading',
  ready: 'Ready',
  generating: 'Generating',
};

const errorLabels: Record<NonNullable<EngineStatus['errorDuring']>, string> = {
  check: 'Cannot run here',
  load: 'Could not load',
  reply: 'Failed while answering',
};

/** A server out of reach, and one that took the connection and then said nothing (busy, or loading a model). */
const serverLabels: Partial<Record<string, string>> = { 'server-down': 'Could not connect', 'server-silent': 'No answer from the server' };

/**
 * A server's model is connected to, not loaded here (the options' button says Connect): one out of
 * reach could not be connected to, one that took the connection did not answer, and one that
 * answered and refused (a key, a model it lacks) could not be used.
 */

function errorLabel(engine: EngineStatus): string {
  const during = engine.errorDuring ?? 'load';
  // A server gone since the last request is found so only when this one is sent; one gone between
  // two replies of a run (a call ran meanwhile) could not be connected to either, though the run had
  // answered. One that broke off in the middle of a reply failed while answering.
  const server = serverLabels[engine.errorCode ?? ''];
  if (during === 'reply' && (engine.beforeFirstWord || (engine.beforeReply && server))) return server ?? 'Failed before answering';
  if (!isServerEngine(engine.engineId) || during !== 'load') return errorLabels[during];
  return serverLabels[engine.errorCode ?? ''] ?? 'Could not use the server';
}

/** Which engine and model answer, and what they are doing now. */
export function StatusLine({ model }: { model: PanelModel }) {
  // What the turns say, each read apart: a reply streaming into them changes none of these.
  const asked = useComputed(() => model.session.value?.turns.some((turn) => turn.outcome !== undefined) ?? false);
  const runningTool = useComputed(() => runningToolOf(model.latestTurn.value));
  const engine = model.shell.value?.engine;
  if (!engine) {
    // A tab gone before the agent said which engine answers (a panel opened on a tab that closed) has nothing to wait for.
    return (
      <div class="status-line" data-testid="status-line">
        <span class="status-state">{model.tabClosed.value ? 'Tab closed' : 'Waiting for the agent…'}</span>
      </div>
    );
  }
  const session = model.shell.value;
  // A model of the catalogue by its name ("Qwen3 0.6B (q4f32)"), a server's by its own id.
  const catalogued = findCatalogModel(engine.model);
  const stalled = engine.state === 'loading' && engine.stalled ? stalledWords(model.running.value) : '';
  return (
    <div class="status-line" data-testid="status-line" data-engine-state={engine.state}>
      <span class="status-engine"><AddressText text={engine.engineLabel} /></span>
      <span class="status-model" title={engine.model}>
        {catalogued ? modelLabel(catalogued) : engine.model}
      </span>
      {/* Nothing more runs for a closed tab, nor on a browser page: what the engine could do is beside the point. */}
      {model.tabClosed.value && <span class="status-state state-idle">Tab closed</span>}
      {session?.closedPage !== 'browser' && !model.tabClosed.value && (
        <EngineActivity
          engine={engine}
          asked={asked.value}
          waiting={model.waitingForPerson.value}
          runningTool={runningTool.value}
          stalled={stalled}
        />
      )}
      {engine.waitingForTab !== undefined && <GoToTabButton tabId={engine.waitingForTab} />}
      {/* Always in the page, so the one sentence a person can act on is read when it comes. */}
      <span class="visually-hidden" role="status" data-testid="load-stalled">
        {stalled}
      </span>
    </div>
  );
}

/** The tool the latest request runs in the page now, if one runs (by the page's words for it, where it gave them): the model waits for it. */
function runningToolOf(turn: Turn | undefined): string | undefined {
  if (turn === undefined || turn.outcome !== undefined) return undefined;
  const card = turn.items.findLast((item) => item.kind === 'tool' && item.state === 'running');
  return card?.kind === 'tool' ? (card.title ?? card.name) : undefined;
}

/** A load quiet for a minute: slow, or stalled; Stop is offered where this tab has a run to stop. */
function stalledWords(running: boolean): string {
  return `Nothing new has come for a minute. On a slow connection one part can take minutes; if this stays so, check your connection${running ? ', or press Stop' : ''}.`;
}

/**
 * What the engine does now. `asked`: a request of this tab ended already (the model loads on the
 * next, not the first; the one under way is still the first); `waiting`: a call waits for the person, so the model is not what is ready;
 * `runningTool`: a tool of the page runs for the request, which waits for it;
 * `stalled`: what to say of a load quiet for a minute (or nothing).
 */
function EngineActivity({ engine, asked, waiting, runningTool, stalled }: { engine: EngineStatus; asked: boolean; waiting: boolean; runningTool: string | undefined; stalled: string }) {
  if (engine.state === 'loading') {
    const progress = engine.progress !== undefined ? Math.min(1, Math.max(0, engine.progress)) : undefined;
    return (
      <span class="status-loading">
        <progress data-testid="progress" max={1} value={progress} aria-label={isServerEngine(engine.engineId) ? 'Connecting to the server' : 'Loading the model'} title={engine.progressText} />
        {progress !== undefined && <span class="status-percent">{Math.round(progress * 100)}%</span>}
        {engine.progressText && (
          <span class="status-detail">
            {engine.progressText}
            {stalled && <span aria-hidden="true"> {stalled}</span>}
          </span>
        )}
      </span>
    );
  }
  // A reply waiting for another tab's (an engine that answers one at a time): the engine's words say so, naming the tab.
  if (engine.state === 'generating' && engine.progressText) return <span class="status-state state-generating">{engine.progressText}</span>;
  if (engine.state === 'generating' && engine.firstWordSince !== undefined) return <FirstWordWait engine={engine} since={engine.firstWordSince} />;
  if (engine.state === 'generating' && engine.quietSince !== undefined) return <QuietReply engine={engine} since={engine.quietSince} />;
  if (engine.state === 'generating' && engine.tokensPerSecond !== undefined) {
    return <span class="status-state">{engine.tokensPerSecond.toFixed(1)} tokens/s</span>;
  }
  if (engine.state === 'idle' && engine.goAheadFirst) {
    return (
      <>
        <span class="status-state state-idle">Press Download in the options first</span>
        <OpenOptionsButton testId="status-open-options" extraClass="status-button" place="model" />
      </>
    );
  }
  const next = asked ? 'next' : 'first';
  // A software GPU runs the model, at a fraction of a graphics chip's speed: said before the person waits on it.
  const slow = engine.state === 'idle' && engine.slowGpu === true;
  if (engine.state === 'idle' && engine.downloadMB !== undefined) {
    const slowWords = slow ? '; WebGPU runs on the processor here, so replies will be slow' : '';
    return <span class="status-state state-idle">Downloads about {formatSizeFromMegabytes(engine.downloadMB)} on your {next} request, once{slowWords}</span>;
  }
  if (slow) return <span class="status-state state-idle">Replies will be slow: WebGPU runs on the processor here</span>;
  if (engine.state === 'ready' && waiting) return <span class="status-state state-waiting">Waiting for you</span>;
  if (engine.state === 'ready' && runningTool !== undefined) {
    return (
      <span class="status-state state-running" title={runningTool}>
        {/* A page's title for its tool may hold a direction override: isolated, shown by its code. */}
        Running <bdi><HiddenCharacters text={runningTool} /></bdi>
      </span>
    );
  }
  // A server's model is the server's to load: the panel connects to it.
  const idle = `${isServerEngine(engine.engineId) ? 'Connects' : 'Loads'} on your ${next} request`;
  const label = engine.state === 'error' ? errorLabel(engine) : engine.state === 'idle' ? idle : stateLabels[engine.state];
  return <span class={`status-state state-${engine.state}`}>{label}</span>;
}
