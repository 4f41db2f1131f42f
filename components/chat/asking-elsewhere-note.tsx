import type { PanelModel } from '@/lib/sidepanel/panel-model';
import type { SessionShell } from '@/lib/sidepanel/session-shell';
import { plural } from '@/lib/text/plural';
import { GoToTabButton } from './go-to-tab-button';

/**
 * A run in another tab that waits for the person's answer: nothing but their answer there lets it
 * go on, and the toolbar shows only this tab's badge, so the panel says so, with the way there. Not
 * where this tab's own request waits for that run: the status line says it then.
 */
export function AskingElsewhereNote({ model }: { model: PanelModel }) {
  const shell = model.shell.value;
  const asking = shell?.askingElsewhere;
  const shown = asking !== undefined && !model.tabClosed.value && shell?.engine.waitingForTab !== asking.tabId;
  // The words' region is there from the start, so that a screen reader hears them as they come,
  // without the button's name.
  return (
    <div class={shown ? 'banner banner-warning' : undefined} data-testid={shown ? 'asking-elsewhere' : undefined}>
      <span role="status">{shown ? askingWords(asking) : ''}</span>
      {shown && <GoToTabButton tabId={asking.tabId} testId="go-to-asking-tab" />}
    </div>
  );
}

function askingWords(asking: NonNullable<SessionShell['askingElsewhere']>): string {
  const where = asking.name === undefined ? 'another tab' : `“${asking.name}”`;
  return asking.more ? `Requests in ${where} and ${plural(asking.more, 'other tab')} wait for your answer.` : `A request in ${where} waits for your answer.`;
}
