import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { focusRequestBox } from './focus-request-box';

/**
 * After "New chat": says so, and offers Undo for as long as the background keeps the conversation
 * it put aside (until the next request). The live region stays in the panel and only its words
 * change, so they are read out; once Undo has brought the chat back, a screen reader hears that.
 */
export function UndoNewChatNote({ model }: { model: PanelModel }) {
  const offered = model.canUndoNewChat.value;
  return (
    <div role="status" class="undo-new-chat" data-testid="new-chat-status">
      {offered && (
        <div class="banner" data-testid="new-chat-note">
          <span>Started a new chat.</span>
          <button
            type="button"
            class="button"
            data-testid="undo-new-chat"
            disabled={model.connection.value !== 'connected'}
            onClick={() => {
              model.undoNewChat();
              // The button goes with the note: the keyboard goes on in the request box.
              focusRequestBox();
            }}
          >
            Undo
          </button>
        </div>
      )}
      {!offered && model.newChatUndone.value && <span class="visually-hidden">The earlier chat is back.</span>}
    </div>
  );
}
