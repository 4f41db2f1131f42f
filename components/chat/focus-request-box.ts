/**
 * Moves keyboard focus to the request box. For a button that is about to disappear once pressed
 * (an approval, a suggestion), so focus does not fall to the page body and a keyboard or
 * screen-reader user does not start again from the top of the panel.
 */
export function focusRequestBox(): void {
  document.querySelector<HTMLTextAreaElement>('[data-testid="chat-input"]')?.focus();
}
