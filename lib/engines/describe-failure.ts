/** A failure as the options page shows it: what happened, and what to do if anything. */
export interface Failure {
  message: string;
  hint?: string;
  /** The field whose value was refused, where the failure is about one: it is marked, and described by the failure. */
  field?: 'address' | 'key';
  /** Found by the page itself (a server asked again as the page opens), not by a press: said politely. */
  unprompted?: true;
}

/**
 * Engine errors carry a hint; anything else is shown by its message. Where the error words its
 * hint for this page too, that one is shown: the other would send the person to the options.
 */
export function describeFailure(error: unknown): Failure {
  if (error instanceof Error) {
    const { hint, optionsHint } = error as { hint?: unknown; optionsHint?: unknown };
    const shown = typeof optionsHint === 'string' ? optionsHint : hint;
    return typeof shown === 'string' ? { message: error.message, hint: shown } : { message: error.message };
  }
  return { message: String(error) };
}

/**
 * An engine's hint, worded for a place where the next try is not the same request sent again (the
 * options page, a side panel whose own request did not fail): "send your request again" becomes
 * `nextTry`, with a capital where the hint's sentence starts with it.
 */
export function hintWithNextTry(hint: string, nextTry: string): string {
  return hint.replace(/\b([Ss])end your request again\b/g, (_whole, s: string) => (s === 'S' ? nextTry.charAt(0).toUpperCase() + nextTry.slice(1) : nextTry));
}
