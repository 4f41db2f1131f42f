/**
 * Moves keyboard focus to the request box. For a button that is about to disappear once pressed
 * (an approval, a suggestion), so focus does not fall to the page body and a keyboard or
 * screen-reader user does not start again from the top of the panel.
 */
export function focusRequestBox(): void {
  requestBox()?.focus();
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
 * person means it to, not after five Tabs. The panel stays scrolled as it is (`quietly`).
 */
export function focusRequestBoxOnOpen(): void {
  if (document.activeElement !== null && document.activeElement !== document.body) return;
  focusingQuietly = true;
  try {
    requestBox()?.focus({ preventScroll: true });
  } finally {
    focusingQuietly = false;
  }
}

let focusingQuietly = false;

/** Whether the focus the request box is getting now is the quiet one of a panel just opened. */
export function focusedQuietly(): boolean {
  return focusingQuietly;
}

function requestBox(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>('[data-testid="chat-input"]');
}
