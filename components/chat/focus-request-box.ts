/**
 * Moves keyboard focus to the request box. For a button that is about to disappear once pressed
 * (an approval, a suggestion), so focus does not fall to the page body and a keyboard or
 * screen-reader user does not start again from the top of the panel.
 */
export function focusRequestBox(): void {
  requestBox()?.focus();
}

/**
 * Whether the focus is in the request box, left empty: where an answer to a question put it, and
 * nothing was typed since, so the next question may take it back.
 */
export function requestBoxFocusedEmpty(): boolean {
  const box = requestBox();
  return box !== null && document.activeElement === box && box.value === '';
}

/**
 * Puts `text` in the request box for the person to finish, focused with the cursor after it. The
 * box shows the draft only once the panel renders again: the text goes in at once as well, so the
 * cursor does not land before text that is not there yet.
 */
export function fillRequestBox(text: string, setDraft: (text: string) => void): void {
  setDraft(text);
  const box = requestBox();
  if (!box) return;
  box.value = text;
  box.focus();
  box.setSelectionRange(text.length, text.length);
}

/**
 * A panel just opened, with the focus nowhere yet: the request box takes it, so typing goes where a
 * person means it to, not after five Tabs. The panel stays scrolled as it is where the
 * box shows whole; in a short panel (zoomed in) where it does not, it scrolls only as far as brings
 * the box, with Send, up to the lower edge, and keeps it there as the panel's parts come in above
 * it (see keepInSightAsPanelFills).
 */
export function focusRequestBoxOnOpen(): void {
  if (document.activeElement !== null && document.activeElement !== document.body) return;
  const box = requestBox();
  if (!box) return;
  box.focus({ preventScroll: true });
  keepInSightAsPanelFills(box);
}

/** How long after the panel opens its first state may still be drawing parts above the request box. */
const panelFillsMs = 2_000;

/**
 * The panel's state comes after it opens: the status line, a notice, the suggestions draw above the
 * box and push it down. Until then, and as long as the focus stays in the box and the person neither
 * scrolls nor types, the box is kept in sight after each change.
 */
function keepInSightAsPanelFills(box: HTMLTextAreaElement): void {
  showComposerWhole();
  const panel = box.closest('.panel') ?? document.body;
  const personActs = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of personActs) panel.removeEventListener(type, stop);
  };
  const observer = new MutationObserver(() => (document.activeElement === box ? showComposerWhole() : stop()));
  observer.observe(panel, { childList: true, subtree: true, characterData: true });
  const timer = setTimeout(stop, panelFillsMs);
  for (const type of personActs) panel.addEventListener(type, stop, { passive: true });
}

/**
 * Scrolls the request box with Send into view, as little as need be, where part of it is off
 * screen. One taller than the panel (zoomed far in) is left to the browser, which keeps the caret
 * in sight: scrolled to its top, Send would go.
 */
export function showComposerWhole(): void {
  const composer = requestBox()?.closest('.composer');
  if (!composer) return;
  const { top, bottom, height } = composer.getBoundingClientRect();
  if (height <= window.innerHeight && (top < 0 || bottom > window.innerHeight)) composer.scrollIntoView({ block: 'nearest' });
}

/** How long a part that took away the focused element has to put the focus somewhere itself. */
const focusFixupMs = 150;

/**
 * Watches `panel` for the element with the focus going away with what held it (a turn's Copy or
 * Trace as the panel turns to another tab, a card redrawn), which leaves the focus on the page's
 * body: a keyboard or screen-reader user would start again from the top. Unless a part of the panel
 * puts the focus somewhere itself meanwhile (as "Turn agent off" does, on the way back on, in an
 * effect after its render; a part that does it later than `focusFixupMs` would see the focus move
 * twice), the request box takes it. Returns the function that stops watching.
 */
export function keepFocusInPanel(panel: HTMLElement): () => void {
  let focused: Element | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lost = () => focused !== null && !focused.isConnected && (document.activeElement === null || document.activeElement === document.body);
  const observer = new MutationObserver(() => {
    if (!lost() || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (lost()) focusRequestBox();
    }, focusFixupMs);
  });
  // Watched only while the focus is on something that may go: not the request box, which stays
  // (a reply streams with the focus there, and the panel's changes are then not looked at).
  const watch = (element: Element | null) => {
    focused = element;
    if (element) observer.observe(panel, { childList: true, subtree: true });
    else observer.disconnect();
  };
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as Element;
    watch(target === requestBox() ? null : target);
  };
  // The person put the focus on nothing (a click on the panel's background): theirs to keep.
  const onFocusOut = (event: FocusEvent) => {
    const left = event.target as Element;
    setTimeout(() => {
      if (left === focused && left.isConnected && document.activeElement === document.body) watch(null);
    });
  };
  panel.addEventListener('focusin', onFocusIn);
  panel.addEventListener('focusout', onFocusOut);
  return () => {
    clearTimeout(timer);
    observer.disconnect();
    panel.removeEventListener('focusin', onFocusIn);
    panel.removeEventListener('focusout', onFocusOut);
  };
}

function requestBox(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>('[data-testid="chat-input"]');
}
