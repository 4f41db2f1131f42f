/**
 * Someone else's words (a server's, the browser's) as a sentence of a message: ended with a full
 * stop where they end without one, and `noReason` where they say nothing.
 */
export function asSentence(words: string, noReason: string): string {
  const trimmed = words.trim();
  return trimmed === '' ? noReason : /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
