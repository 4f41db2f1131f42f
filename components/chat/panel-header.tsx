import { useEffect, useState } from 'preact/hooks';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { plural } from '@/lib/text/plural';
import { siteLabel } from '@/lib/text/site-label';
import { siteOfAddress } from '@/lib/text/origin-of';
import { focusRequestBox } from './focus-request-box';
import { OpenOptionsButton } from './open-options-button';
import { pressWhenAllowed } from './press-when-allowed';
import { TurnAgentOffButton } from './turn-agent-off-button';
import { AddressText } from '@/components/shared/address-text';

/**
 * Which site the panel talks to, a way to turn the agent off there (or, in a private window, that
 * nothing is kept), to start over, and the way to the options.
 */
export function PanelHeader({ model }: { model: PanelModel }) {
  const session = model.shell.value;
  const site = session ? pageLabel(session.origin, session.url, session.pageAsleep === true) : '';
  const runGoesOn = model.running.value && !model.tabClosed.value;
  // New chat pressed while a request runs: said under the header, until the run ends (a tooltip
  // shows only to a pointer, and the press otherwise does nothing to see).
  const [pressedDuringRun, setPressedDuringRun] = useState(false);
  // "Stop allowing" pressed: said once, until the site is allowed again.
  const [stoppedAllowing, setStoppedAllowing] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (session?.siteAllowed) setStoppedAllowing(undefined);
  }, [session?.siteAllowed]);
  useEffect(() => {
    if (!runGoesOn) setPressedDuringRun(false);
  }, [runGoesOn]);
  const newChat = pressWhenAllowed(model.connection.value === 'connected' && !runGoesOn, () => {
    model.newChat();
    // The button is disabled once the chat is empty: focus goes on to the request box.
    focusRequestBox();
  });
  return (
    <header class="panel-header">
      <div class="site">
        <h1 class="site-origin" title={session?.url}>
          {site ? <AddressText text={site} /> : 'WebMCP agent'}
        </h1>
        {session && (
          <span class="site-line">
            <span class="site-detail">{model.tabClosed.value ? 'Tab closed' : siteDetail(session)}</span>
            {session.siteAllowed && !session.agentOff && !model.tabClosed.value && (
              <button
                type="button"
                class="site-switch"
                data-testid="stop-allowing"
                aria-label={`Stop allowing changes on ${siteLabel(session.origin)} without asking`}
                {...pressWhenAllowed(model.connection.value === 'connected', () => {
                  // The button goes once the site is no longer allowed: the focus goes on to the
                  // header's next control, and the change is said.
                  if (model.stopAllowingSite()) setStoppedAllowing(siteLabel(session.origin));
                  const next = document.querySelector<HTMLElement>('[data-testid="agent-off-here"]');
                  // A private window's panel offers no "Turn agent off": the request box then.
                  if (next) next.focus();
                  else focusRequestBox();
                })}
              >
                Stop allowing
              </button>
            )}
            <TurnAgentOffButton model={model} />
            {/* A tab gone is no tab the browser can say is in a private window. */}
            {session.privateWindow && !model.tabClosed.value && (
              <span class="site-detail" data-testid="private-window">
                Private window: nothing is kept
              </span>
            )}
          </span>
        )}
      </div>
      <button
        type="button"
        class="button"
        data-testid="new-chat"
        disabled={!session || model.tabClosed.value || !model.hasTurns.value}
        // Greyed out while a request runs, yet reached by the keyboard (aria-disabled): pointed at or
        // focused, it says why, and what ends the wait.
        title={runGoesOn ? newChatWaits : undefined}
        aria-disabled={newChat['aria-disabled']}
        onClick={(event) => {
          if (runGoesOn) setPressedDuringRun(true);
          newChat.onClick(event);
        }}
      >
        New chat
      </button>
      <OpenOptionsButton label="Options" testId="open-options" />
      <p class="visually-hidden" role="status" data-testid="stopped-allowing">
        {stoppedAllowing && !session?.siteAllowed ? `Calls that change ${stoppedAllowing} ask you again.` : ''}
      </p>
      {runGoesOn && pressedDuringRun && (
        <p class="new-chat-wait" role="status" data-testid="new-chat-wait">
          {newChatWaits}
        </p>
      )}
    </header>
  );
}

const newChatWaits = 'A new chat starts once this request ends: Stop ends it now.';

/**
 * What the agent may do here: off on the site (no model is shown its tools, so they are not counted),
 * nothing on a page no extension can read, or how many tools it offers.
 */
function siteDetail(session: NonNullable<PanelModel['shell']['value']>): string {
  if (session.agentOff) return 'Agent off on this site';
  if (session.closedPage === 'browser') return 'A browser page';
  if (session.pageAsleep) return 'Tab asleep';
  const tools = plural(session.toolCount, 'tool');
  return session.siteAllowed ? `${tools} · changes allowed` : tools;
}

/**
 * The page the panel is about: by its site, or where the background names none (a browser page, a
 * file), by its address as it is. A tab asleep that the background could not name (it had no
 * chat) is named by the site of the address the panel kept.
 */
function pageLabel(origin: string, url: string, asleep: boolean): string {
  if (origin) return siteLabel(origin);
  const kept = asleep ? siteOfAddress(url) : undefined;
  return kept ? siteLabel(kept) : url;
}
