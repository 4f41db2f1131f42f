import type { PanelModel } from '@/lib/sidepanel/panel-model';

/** The request box: Enter sends, Shift+Enter starts a new line; Stop replaces Send while a run goes. */
export function ChatInput({ model }: { model: PanelModel }) {
  const draft = model.draft.value;
  const running = model.running.value;
  const canSend = model.canSend.value && draft.trim() !== '';

  const onKeyDown = (event: KeyboardEvent) => {
    // An IME uses Enter to confirm a composition; that is not a send.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    model.send();
  };

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        model.send();
      }}
    >
      <textarea
        data-testid="chat-input"
        aria-label="Your request"
        placeholder="Ask this page to do something…"
        rows={1}
        maxLength={20_000}
        value={draft}
        onInput={(event) => model.setDraft(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      {running ? (
        <button type="button" class="button danger" data-testid="stop" onClick={() => model.stop()}>
          Stop
        </button>
      ) : (
        <button type="submit" class="button primary" data-testid="send" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
