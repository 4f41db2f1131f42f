import { useEffect, useRef } from 'preact/hooks';
import { normalizeSiteOrigin } from '@/lib/settings/normalize-site-origin';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { siteLabel } from '@/lib/text/site-label';
import { pressWhenAllowed } from './press-when-allowed';

/**
 * Turns the agent off on the panel's site, from the line under its name: a link-like button, so
 * the header keeps two buttons at a side panel's 320 px. Offered while a run goes on, which stops
 * (the person just said the agent may not act here), and only on a web site: a browser page or a
 * file has no origin to list (see `normalizeSiteOrigin`).
 */
export function TurnAgentOffButton({ model }: { model: PanelModel }) {
  const session = model.shell.value;
  const agentOff = session?.agentOff;
  // The button goes once the agent is off: focus goes on to the note's way to turn it back on.
  const pressed = useRef(false);
  useEffect(() => {
    if (!pressed.current || !agentOff) return;
    pressed.current = false;
    document.querySelector<HTMLElement>('[data-testid="agent-on"]')?.focus();
  }, [agentOff]);

  // A private window's site would stay listed after the window closes: not offered there.
  // Nor for a closed tab: the options are the place for its site now.
  if (!session || agentOff || model.tabClosed.value || session.privateWindow || normalizeSiteOrigin(session.origin) === undefined) return null;
  return (
    <button
      type="button"
      class="site-switch"
      data-testid="agent-off-here"
      aria-label={`Turn agent off on ${siteLabel(session.origin)}`}
      {...pressWhenAllowed(model.connection.value === 'connected', () => {
        pressed.current = model.setAgentOff(true);
      })}
    >
      Turn agent off
    </button>
  );
}
