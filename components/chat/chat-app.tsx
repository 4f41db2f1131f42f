import { useComputed } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { EngineStatus, Turn } from '@/lib/agent/session-state';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { AskingElsewhereNote } from './asking-elsewhere-note';
import { ChatInput } from './chat-input';
import { ConnectionBanner } from './connection-banner';
import { EngineErrorBox } from './engine-error-box';
import { keepFocusInPanel } from './focus-request-box';
import { Conversation } from './conversation';
import { ErrorBanner } from './error-banner';
import { PanelHeader } from './panel-header';
import { RunAnnouncer } from './run-announcer';
import { StatusLine } from './status-line';
import { SuggestionChips } from './suggestion-chips';
import { UndoNewChatNote } from './undo-new-chat-note';

/** The side panel: one tab's conversation with the agent. */
export function ChatApp({ model }: { model: PanelModel }) {
  // It reads no signal itself: each part below renders again only for what it shows.
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => keepFocusInPanel(panel.current!), []);
  return (
    <div class="panel" ref={panel}>
      <PanelHeader model={model} />
      <StatusLine model={model} />
      <ConnectionBanner model={model} />
      <ErrorBanner model={model} />
      <AskingElsewhereNote model={model} />
      {/* Above the scrolled conversation, so a long chat never hides why the model failed. */}
      <EngineError model={model} />
      <Conversation model={model} />
      <UndoNewChatNote model={model} />
      <div class="composer-area">
        <SuggestionChips model={model} />
        <ChatInput model={model} />
      </div>
      {/* Outside the conversation, which says the same words where a screen reader reads it. */}
      <LatestRunAnnouncer model={model} />
    </div>
  );
}

function EngineError({ model }: { model: PanelModel }) {
  const saidInTurn = useComputed(() => saidInLatestTurn(engineShown(model), model.latestTurn.value));
  return <EngineErrorBox engine={engineShown(model)} saidInTurn={saidInTurn.value} />;
}

/** No request runs on a browser page, nor for a closed tab, whatever the engine: why it cannot run is no news there. */
function engineShown(model: PanelModel): EngineStatus | undefined {
  const shell = model.shell.value;
  return shell?.closedPage === 'browser' || model.tabClosed.value ? undefined : shell?.engine;
}

function LatestRunAnnouncer({ model }: { model: PanelModel }) {
  return <RunAnnouncer turn={model.latestTurn.value} engine={model.shell.value?.engine} />;
}

/**
 * Whether the latest request says why the model failed to load or mid-reply: the one that just
 * ended in its own notice (where it happened, with the way to the options), or the one under way,
 * which will say how it ends (a failure before it was the last request's, and the next load tries again).
 */
function saidInLatestTurn(engine: EngineStatus | undefined, turn: Turn | undefined): boolean {
  if (engine?.state !== 'error' || engine.errorDuring === 'check' || !engine.error) return false;
  if (turn !== undefined && turn.outcome === undefined) return true;
  return turn?.outcome === 'error' && (turn.notice ?? '').includes(engine.error);
}
