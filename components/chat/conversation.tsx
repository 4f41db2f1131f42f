import type { SessionState } from '@/lib/agent/session-state';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { requestInFront } from '@/lib/sidepanel/request-in-front';
import { useCallback, useLayoutEffect, useRef } from 'preact/hooks';
import { AgentOffNote } from './agent-off-note';
import { ChatEndedNote } from './chat-ended-note';
import { fillRequestBox, focusRequestBox } from './focus-request-box';
import { NoToolsNote } from './no-tools-note';
import { TurnsLeftOutNote } from './turns-left-out-note';
import { TurnView } from './turn-view';
import { UnreachablePageNote } from './unreachable-page-note';
import { useStickToBottom } from './use-stick-to-bottom';
import { useTurnsInPasses } from './use-turns-in-passes';

/** The tab's conversation, or what to know before starting one. */
export function Conversation({ model }: { model: PanelModel }) {
  const session = model.session.value;
  const approvalsSent = model.approvalsSent.value;
  const turns = session?.turns ?? [];
  // A new request, or another tab's conversation, starts at its end.
  // Each delta of the reply, each call and answer, makes a new latest turn.
  const { scroller, content, newerBelow, toEnd } = useStickToBottom<HTMLElement, HTMLDivElement>(`${session?.tabId}:${turns.length}`, turns.at(-1));
  const newerButton = useRef<HTMLButtonElement>(null);
  // The button goes once the end is in view, however the person got there: focus on it goes on.
  const newerButtonHadFocus = !newerBelow && newerButton.current !== null && document.activeElement === newerButton.current;
  useLayoutEffect(() => {
    if (newerButtonHadFocus) focusAfterNewerBelow();
  }, [newerButtonHadFocus]);
  const hidden = useTurnsInPasses(turns, session?.tabId);
  // Only the latest request is offered again: an older one has been followed by others.
  const latest = turns.at(-1);
  // The requests above the latest that a model read at all: one that failed before the model was
  // asked (a load, a server refusing the connection) left it nothing to read again.
  const requestsBefore = turns.slice(0, -1).filter((turn) => turn.requestsRead !== undefined).length;
  const canSend = model.canSend.value;
  // A request too long for the model goes back in the box to be shortened, before what was typed since.
  const editRequest = useCallback(
    (request: string) => {
      const draft = model.draft.peek();
      fillRequestBox(draft.startsWith(request) ? draft : requestInFront(request, draft), model.setDraft);
    },
    [model],
  );
  const tabClosed = model.tabClosed.value;
  // The tools note speaks of a page the extension can read; one it cannot gets its own.
  const unreachable = session !== undefined && !tabClosed && !session.pageReachable && session.toolCount === 0;
  // Where the agent is off, that is all there is to say.
  const noTools = session !== undefined && !tabClosed && session.pageReachable && session.toolCount === 0 && !session.agentOff;

  return (
    <main class="conversation" ref={scroller} aria-label="Conversation">
      <div class="conversation-content" ref={content}>
        {session?.chatEnded && turns.length === 0 && <ChatEndedNote ending={session.chatEnded} />}
        {noTools && turns.length === 0 && <NoToolsNote compact={false} loading={session.pageLoading === true} refused={session.toolsRefused === true} />}
        {session && !tabClosed && !session.agentOff && turns.length === 0 && session.toolCount > 0 && (
          <AskThisPage toolCount={session.toolCount} modelCannotRun={model.engineCannotRun.value} />
        )}
        {session?.turnsLeftOut && turns.length > 0 && <TurnsLeftOutNote leftOut={session.turnsLeftOut} />}
        {turns.slice(hidden).map((turn) => (
          <TurnView
            key={turn.id}
            turn={turn}
            {...(turn === latest ? { requestsBefore } : {})}
            approvalsSent={approvalsSent}
            onApprove={model.approve}
            connection={model.connection}
            {...(turn === latest && canSend ? { onTryAgain: model.send } : {})}
            {...(turn === latest ? { onEditRequest: editRequest } : {})}
          />
        ))}
        {/* Offered in a private window too: turning the agent on takes an entry away, and keeps nothing of the visit. */}
        {session?.agentOff && !tabClosed && <AgentOffEntry model={model} origin={session.origin} offBy={session.agentOffBy} />}
        {noTools && turns.length > 0 && (
          <NoToolsNote compact loading={session.pageLoading === true} refused={session.toolsRefused === true} askAboutChat={session.askAboutChat === true} />
        )}
        {tabClosed && <TabClosedNote asked={turns.length > 0} />}
        {unreachable && <UnreachableEntry model={model} session={session} />}
      </div>
      {/* The panel's run announcer says what a screen reader needs of the run: this is for the eyes. */}
      {newerBelow && (
        <button
          ref={newerButton}
          type="button"
          class="to-newest"
          onClick={() => {
            toEnd();
            focusAfterNewerBelow();
          }}
        >
          Newer below <span aria-hidden="true">↓</span>
        </button>
      )}
    </main>
  );
}

/**
 * What a page with tools and no conversation yet shows: what it offers, and how it is used. Where
 * the engine cannot run here (said above it), no model uses them until another engine is picked.
 */
function AskThisPage({ toolCount, modelCannotRun }: { toolCount: number; modelCannotRun: boolean }) {
  const tools = `It offers ${toolCount} ${toolCount === 1 ? 'tool' : 'tools'}.`;
  return (
    <div class="empty-state">
      <h2>Ask this page</h2>
      <p>
        {modelCannotRun
          ? `${tools} Once an engine that runs here is picked in the options, a model uses them for you, and asks before anything with consequences.`
          : `${tools} A small model on your machine uses them for you, and asks before anything with consequences.`}
      </p>
    </div>
  );
}

/** What a panel fixed to one tab says once that tab is closed: its chat, if any, stays in view as it ended. */
function TabClosedNote({ asked }: { asked: boolean }) {
  return (
    <p class="notice-box tone-neutral" data-testid="tab-closed-note">
      The tab this page was opened for is closed, so nothing more can be asked here.
      {asked && ' Its chat stays in view until you close this page.'}
    </p>
  );
}

/** The agent-off note with its way back on; it reads the connection only while it is shown. */
function AgentOffEntry({ model, origin, offBy }: { model: PanelModel; origin: string; offBy: readonly string[] }) {
  return (
    <AgentOffNote
      origin={origin}
      connected={model.connection.value === 'connected'}
      offBy={offBy}
      onTurnOn={() => {
        model.setAgentOff(false);
        // The note, and its button, go once the settings change: the request box is next.
        focusRequestBox();
      }}
    />
  );
}

/** The note for a page the extension cannot read, with its Reload. */
function UnreachableEntry({ model, session }: { model: PanelModel; session: SessionState }) {
  return (
    <UnreachablePageNote
      closedPage={session.closedPage}
      loadFailed={session.pageLoadFailed === true}
      asleep={session.pageAsleep === true}
      onReload={() => {
        model.reloadPage();
        // The note, and its button, go once the page answers.
        focusRequestBox();
      }}
    />
  );
}

/** Where "Newer below" leaves focus as it goes: on a question that waits for the person, else the request box. */
function focusAfterNewerBelow(): void {
  const waiting = [...document.querySelectorAll<HTMLButtonElement>('[data-testid="approve-once"]:not(:disabled)')].at(-1);
  if (waiting) waiting.focus();
  else focusRequestBox();
}
