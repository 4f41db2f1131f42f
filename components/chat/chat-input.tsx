import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { engineName } from '@/lib/engines/engine-labels';
import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { focusRequestBox, focusRequestBoxOnOpen, showComposerWhole } from './focus-request-box';
import { pressWhenAllowed } from './press-when-allowed';
import { useEscapeCancels } from '@/components/shared/use-escape-cancels';

/** The most a request may hold, in UTF-16 units as the text area counts them. */
const requestCharacters = 20_000;

/**
 * The request box: Enter sends, Shift+Enter starts a new line; Stop replaces Send while a run goes,
 * and Escape stops it too (as in most chat apps), wherever in the panel the focus is. A paste past
 * the box's limit is cut by the browser, and the panel says so.
 */
export function ChatInput({ model }: { model: PanelModel }) {
  const draft = model.draft.value;
  const running = model.running.value;
  const canSend = model.canSend.value && draft.trim() !== '';
  const hadFocus = useFocusBackWhenRunEnds(running);
  // The request as Enter left it unsent, and whether a run held it: said until it is edited, or
  // until what held it is gone (the run ended, another engine was picked).
  const heldDraft = useSignal<{ text: string; whileRunning: boolean } | undefined>(undefined);
  // A run that ended takes its note with it: a later run (Try again) refused nothing yet. So does
  // a request that can go now: should it be held again later, Enter has not been pressed for that.
  const sendable = model.canSend.value;
  useEffect(() => {
    if ((!running && heldDraft.value?.whileRunning) || sendable) heldDraft.value = undefined;
  }, [running, sendable]);
  const held = heldDraft.value !== undefined && heldDraft.value.text === draft ? heldDraft.value : undefined;
  const note = held?.whileRunning ? (running ? heldWords(model.waitingForPerson.value) : '') : held ? notSentWords(model) : '';
  const onKeyDown = requestBoxKeys(model, (text) => (heldDraft.value = { text, whileRunning: model.running.value }));
  // Escape anywhere in the panel stops the run, as Stop's `aria-keyshortcuts` says; as the Stop
  // button (see pressWhenAllowed), not while reconnecting, when a stop would go nowhere.
  useEscapeCancels(running, () => model.stop(), () => model.connection.value === 'connected');
  useEffect(focusRequestBoxOnOpen, []);
  // The request as a paste the box cut left it: said until it is sent or edited.
  const cutDraft = useSignal<string | undefined>(undefined);
  const pasteCut = cutDraft.value !== undefined && cutDraft.value === draft;

  return (
    <>
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
        <RequestBox
          model={model}
          draft={draft}
          placeholder={placeholderFor(model)}
          onKeyDown={onKeyDown}
          onPasteCut={(left) => (cutDraft.value = left)}
        />
        {running ? (
          <StopButton key="stop" model={model} hadFocus={hadFocus} />
        ) : (
          <button
            key="send"
            type="submit"
            class="button primary"
            data-testid="send"
            disabled={!canSend}
            onClick={(event) => {
              // Send takes Stop's place under the pointer: the second click of a double click on
              // Stop is not a request to send what was typed meanwhile.
              if (event.detail >= 2) event.preventDefault();
            }}
          >
            Send
          </button>
        )}
      </form>
      {/* A live region that stays in the panel, only its words changing, so a screen reader reads them. */}
      <p class="muted request-cut" role="status" data-testid="request-cut">
        {pasteCut
          ? `Only the first ${requestCharacters.toLocaleString('en-US')} characters fit in a request: the rest of what you pasted was left out.`
          : ''}
      </p>
      <p class="muted request-note" role="status" data-testid="request-note">
        {note}
      </p>
    </>
  );
}

/**
 * Stop goes away when the run ends: focus it held goes back to the request box, not the page body.
 * Focus the person moved on from Stop (Tab to a Trace link) stays where they put it, unless what
 * they moved to went too (an approval's buttons).
 */
function useFocusBackWhenRunEnds(running: boolean): { current: boolean } {
  const hadFocus = useRef(false);
  useEffect(() => {
    const focusWentWithStop = document.activeElement === null || document.activeElement === document.body;
    if (!running && hadFocus.current && focusWentWithStop) focusRequestBox();
    hadFocus.current = false;
  }, [running]);
  return hadFocus;
}

/**
 * The request box's keys (Escape is the panel's, see useEscapeCancels above), apart from the box so that
 * ChatInput reads as its layout. Enter where nothing can be sent (a run goes, the engine cannot
 * run here) sends nothing: `onHeld` says so.
 */
function requestBoxKeys(model: PanelModel, onHeld: (text: string) => void) {
  return (event: KeyboardEvent) => {
    // An IME uses Enter to confirm a composition: not for us.
    if (event.isComposing) return;
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    const text = model.draft.value;
    if (text.trim() !== '' && !model.canSend.value) onHeld(text);
    else model.send();
  };
}

/**
 * Why Enter sent nothing where no run goes, as the placeholder would say it had the box been empty,
 * or nothing once a request could go (the person picked an engine that runs, the panel reconnected).
 */
function notSentWords(model: PanelModel): string {
  const why = whyNotSent(model);
  return why ? `${why} What you typed stays here.` : '';
}

/** Why no request can be sent now, in a sentence; undefined where one can, or the box says nothing more. */
export function whyNotSent(model: PanelModel): string | undefined {
  if (model.canSend.value || model.tabClosed.value || model.shell.value === undefined) return undefined;
  if (model.connection.value !== 'connected') return 'The panel is connecting to the extension: press Enter again in a moment.';
  if (model.shell.value.agentOff) return 'The agent is off on this site: turn it on above to ask.';
  const placeholder = placeholderFor(model);
  return placeholder === askPlaceholder || placeholder === askAboutChatPlaceholder ? undefined : `${placeholder}.`;
}

/** Why Enter sent nothing: a question waits for the person (a typed "yes" answers nothing), or a request runs. */
function heldWords(questionWaits: boolean): string {
  const wait = questionWaits ? 'Answer the question above with its buttons, or press Stop.' : 'One request runs at a time: wait for this one to end, or press Stop.';
  return `${wait} What you typed stays here.`;
}

interface RequestBoxProps {
  model: PanelModel;
  draft: string;
  placeholder: string;
  onKeyDown(event: KeyboardEvent): void;
  /** A paste did not fit: the browser kept what did, and the request is now `left`. */
  onPasteCut(left: string): void;
}

/** The text area itself; its placeholder is worked out by ChatInput, which reads the signals behind it. */
function RequestBox({ model, draft, placeholder, onKeyDown, onPasteCut }: RequestBoxProps) {
  const pasteTooLong = useRef(false);
  return (
    <textarea
      data-testid="chat-input"
      aria-label="Your request"
      dir="auto"
      placeholder={placeholder}
      rows={1}
      maxLength={requestCharacters}
      // A closed tab takes nothing more: what was typed stays, to be read or copied.
      readOnly={model.tabClosed.value}
      value={draft}
      onPaste={(event) => {
        const box = event.currentTarget;
        const pasted = event.clipboardData?.getData('text/plain') ?? '';
        const replaced = (box.selectionEnd ?? 0) - (box.selectionStart ?? 0);
        pasteTooLong.current = box.value.length - replaced + pasted.length > requestCharacters;
      }}
      onInput={(event) => {
        model.setDraft(event.currentTarget.value);
        // The browser shows the caret, maybe only the box's top line: the box and Send show whole.
        showComposerWhole();
        // The input that follows a paste carries what of it the box kept.
        if (pasteTooLong.current) onPasteCut(event.currentTarget.value);
        pasteTooLong.current = false;
      }}
      // In a short panel (zoomed in, a small window) the box, with Send, may sit half under the
      // panel's lower edge, where the browser's own scroll to a focused field leaves it: shown whole.
      onFocus={showComposerWhole}
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
      {...pressWhenAllowed(model.connection.value === 'connected', (event) => {
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
  if (model.tabClosed.value) return 'This tab is closed';
  if (model.shell.value?.pageAsleep) return 'This tab is asleep: wake it to ask';
  const noTools = model.shell.value?.toolCount === 0;
  if (noTools && !model.shell.value?.askAboutChat) return 'This page offers no tools to ask for';
  if (model.engineCannotRun.value) return `${engineName(model.shell.value?.engine.engineId ?? '')} cannot run here: pick another engine in the options`;
  return noTools ? askAboutChatPlaceholder : askPlaceholder;
}

const askPlaceholder = 'Ask this page to do something…';
/** A page without tools, where the tab's chat was held on its site: only the chat can be asked about. */
const askAboutChatPlaceholder = 'Ask about this chat (this page offers no tools)…';
