// The last hold on a streamed reply's prose (see streamReply): the prose filter cannot tell a bare
// JSON call from an answer, so a reply that opens like one is held for the loop to judge.

/** Holds a reply that opens like a bare JSON call (`{` or `[`) until the reply ends. */
export interface BareCallHolder {
  /** Takes the next prose and returns what to show now ('' for nothing). */
  show(prose: string): string;
  /** What is held: undefined once the reply has shown it is prose. */
  held(): string | undefined;
}

/**
 * Holds prose until its first non-white character: if that is `{` or `[`, everything from there to
 * the end of the reply is held without looking (see StreamedReply's `heldProse`); otherwise what
 * was held is shown, and all prose after it passes at once.
 */
export function createBareCallHolder(): BareCallHolder {
  // undefined once the reply has shown it is prose; until then, what the filter let through.
  let held: string | undefined = '';
  // Set once the reply opens with `{` or `[`: then the rest is held without looking.
  let holdToEnd = false;
  return {
    show(prose) {
      if (!prose) return '';
      if (held === undefined) return prose;
      held += prose;
      if (holdToEnd) return '';
      const opening = held.trimStart();
      if (opening === '') return '';
      holdToEnd = /^[{[]/.test(opening);
      if (holdToEnd) return '';
      const shown = held;
      held = undefined;
      return shown;
    },
    held: () => held,
  };
}
