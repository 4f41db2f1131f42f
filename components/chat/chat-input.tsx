import { useEffect, useRef } from 'preact/hooks';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { focusRequestBox } from './focus-request-box';
import { pressWhenConnected } from './press-when-connected';

/**
 * The request box: Enter sends, Shift+Enter starts a new line; Stop replaces Send while a run goes,
 * and Escape in the box stops it too (as in most chat apps).
 */
export function ChatInput({ model }: { model: PanelModel }) {
  const draft = model.draft.value;
  const running = model.running.value;
  const canSend = model.canSend.value && draft.trim() !== '';
  const hadFocus = useFocusBackWhenRunEnds(running);
  const onKeyDown = requestBoxKeys(model, running);

  return (
    <form
      class="composer"
      aria-label="Request"
      onSubmit={(event) => {
        event.preventDefault();
        model.send();
        // Send turns into Stop: keep the keyboard in the request box, where a second Enter does nothing.
        focusRequestBox();
      }}
    >
      <RequestBox model={model} draft={draft} placeholder={placeholderFor(model)} onKeyDown={onKeyDown} />
      {running ? (
        <StopButton key="stop" model={model} hadFocus={hadFocus} />
      ) : (
        <button key="send" type="submit" class="button primary" data-testid="send" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}

/** Stop goes away when the run ends: focus it held goes back to the request box, not the page body. */
function useFocusBackWhenRunEnds(running: boolean): { current: boolean } {
  const hadFocus = useRef(false);
  useEffect(() => {
    if (!running && hadFocus.current) focusRequestBox();
    hadFocus.current = false;
  }, [running]);
  return hadFocus;
}

/** The request box's keys, apart from the box so that ChatInput reads as its layout. */
function requestBoxKeys(model: PanelModel, running: boolean) {
  return (event: KeyboardEvent) => {
    // An IME uses Enter to confirm a composition, and Escape to cancel one: neither is for us.
    if (event.isComposing) return;
    // As the Stop button (see pressWhenConnected): while reconnecting, a stop would go nowhere.
    if (event.key === 'Escape' && running && model.connection.value === 'connected') {
      event.preventDefault();
      model.stop();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    model.send();
  };
}

interface RequestBoxProps {
  model: PanelModel;
  draft: string;
  placeholder: string;
  onKeyDown(event: KeyboardEvent): void;
}

/** The text area itself; its placeholder is worked out by ChatInput, which reads the signals behind it. */
function RequestBox({ model, draft, placeholder, onKeyDown }: RequestBoxProps) {
  return (
    <textarea
      data-testid="chat-input"
      aria-label="Your request"
      dir="auto"
      placeholder={placeholder}
      rows={1}
      maxLength={20_000}
      value={draft}
      onInput={(event) => model.setDraft(event.currentTarget.value)}
      onKeyDown={onKeyDown}
    />
  );
}

/** Stop, with the note of its focus that useFocusBackWhenRunEnds reads when the run ends. */
function StopButton({ model, hadFocus }: { model: PanelModel; hadFocus: { current: boolean } }) {
  return (
    <button
      type="button"
      class="button danger"
      data-testid="stop"
      aria-keyshortcuts="Escape"
      title="Stop (Esc)"
      onFocus={() => (hadFocus.current = true)}
      {...pressWhenConnected(model.connection.value === 'connected', (event) => {
        // Stop takes Send's place under the pointer: the second click of a double click on
        // Send is not a request to stop.
        if (event.detail < 2) model.stop();
      })}
    >
      Stop
    </button>
  );
}

function placeholderFor(model: PanelModel): string {
  if (model.session.value?.toolCount === 0) return 'This page offers no tools to ask for';
  if (model.engineCannotRun.value) return 'The chosen engine cannot run here: pick another in the options';
  return 'Ask this page to do something…';
}
