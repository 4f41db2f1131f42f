import { useId } from 'preact/hooks';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { focusRequestBox } from './focus-request-box';
import { pressWhenAllowed } from './press-when-allowed';

/**
 * Undo of "New chat", for as long as the background keeps the conversation it put aside (until the
 * next request). Right after this panel's New chat, "Started a new chat." is said in a live region
 * that stays in the panel, only its words changing, so a screen reader reads them out. An offer the
 * panel finds later (opened again, back on the tab, another panel's press) is news to nobody: it
 * sits outside that region, quiet, and says what it is. Once Undo has brought the chat back, a
 * screen reader hears that.
 */
export function UndoNewChatNote({ model }: { model: PanelModel }) {
  const offered = model.canUndoNewChat.value;
  const startedHere = model.newChatStartedHere.value;
  const offerId = useId();
  return (
    <div class="undo-new-chat">
      <div role="status" data-testid="new-chat-status">
        {offered && startedHere && (
          <div class="banner" data-testid="new-chat-note">
            <span>Started a new chat.</span>
            <UndoButton model={model} label="Undo" />
          </div>
        )}
        {!offered && model.newChatUndone.value && <span class="visually-hidden">The earlier chat is back.</span>}
      </div>
      {offered && !startedHere && (
        <div class="banner" data-testid="earlier-chat-note">
          <span id={offerId}>The earlier chat can be brought back.</span>
          <UndoButton model={model} label="Bring it back" describedBy={offerId} />
        </div>
      )}
    </div>
  );
}

function UndoButton({ model, label, describedBy }: { model: PanelModel; label: string; describedBy?: string }) {
  return (
    <button
      type="button"
      class="button"
      data-testid="undo-new-chat"
      aria-describedby={describedBy}
      {...pressWhenAllowed(model.connection.value === 'connected', () => {
        model.undoNewChat();
        // The button goes with the note: the keyboard goes on in the request box.
        focusRequestBox();
      })}
    >
      {label}
    </button>
  );
}
