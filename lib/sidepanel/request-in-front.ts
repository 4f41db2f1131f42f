// A request that comes back unanswered goes in front of what was typed since: it was written
// first, the refusal asks for it again, and the words after it are kept as they were.

/** `request` with `draft` after it on a new line, or alone where nothing was typed. */
export function requestInFront(request: string, draft: string): string {
  return draft === '' ? request : `${request}\n${draft}`;
}
