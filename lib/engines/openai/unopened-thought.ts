// Apart from reading a streamed reply: thoughts a model streams as text without their opening tag.

const open = '<think>';
const close = '</think>';
/** How far into a reply its `</think>` is looked for, to learn the model opens its thought in the prompt. */
const learnWithinChars = 64_000;

/** What a piece of a reply's text is, once read: thoughts, text to show, or both. */
export interface ReadPiece {
  /** The piece was (or began with) thoughts. */
  thought: boolean;
  /** What of it is the reply's text, where any is. */
  text?: string;
  /** The thought it closed, whole (as the trace keeps it), where it closed one. */
  closed?: string;
}

/**
 * A model whose chat template ends the prompt with `<think>` (DeepSeek-R1's, Qwen3-Thinking's)
 * writes only the `</think>` that closes its thought: on a server that does not take reasoning
 * apart, its thoughts come as the reply's text, and the person would see them as the answer until
 * that tag. Once a reply of the model showed it (the model is added to `opensInPrompt`, the
 * server's `ServerMemory.opensThoughtInPrompt`), the text of its later replies up to `</think>` is
 * taken as thoughts, as a server's separate reasoning is. A reply that opens with its own `<think>`
 * is read as it comes; one that ends without `</think>` was an answer after all, given whole at its
 * end (`end`), and the model is no longer taken for one that opens in the prompt.
 */
export function readUnopenedThought(opensInPrompt: Set<string>, model: string) {
  let held = opensInPrompt.has(model) ? '' : undefined;
  // The reply's text as far as it is looked at for the lesson.
  let seen = '';
  let learning = held === undefined;
  // The thought just closed: the blank lines a model writes after `</think>` are no part of its text.
  let afterThought = false;

  // Where a tag may begin that the last search did not see whole (`</think>`, the longer tag, sets
  // the window, which holds a split `<think>` too): each piece is searched once.
  const searchFrom = (before: string) => Math.max(0, before.length - close.length + 1);

  const learn = (text: string) => {
    const from = searchFrom(seen);
    seen += text;
    const opened = seen.indexOf(open, from);
    const closed = seen.indexOf(close, from);
    if (closed !== -1 && (opened === -1 || opened > closed)) opensInPrompt.add(model);
    if (closed !== -1 || opened !== -1 || seen.length > learnWithinChars) learning = false;
  };

  return {
    /** Reads the next piece of the reply's text. */
    read(text: string): ReadPiece {
      if (learning) learn(text);
      if (held === undefined) {
        if (!afterThought) return { thought: false, text };
        const words = text.replace(/^\s+/, '');
        afterThought = words === '';
        return words ? { thought: false, text: words } : { thought: false };
      }
      const from = searchFrom(held);
      held += text;
      // The model opened its thought itself this time: its text is read as it comes.
      const lead = held.trimStart();
      if (lead.length >= open.length ? lead.startsWith(open) : open.startsWith(lead) && lead !== '') {
        if (lead.length < open.length) return { thought: true };
        const whole = held;
        held = undefined;
        return { thought: false, text: whole };
      }
      const closed = held.indexOf(close, from);
      if (closed === -1) return { thought: true };
      const thought = held.slice(0, closed).trim();
      const after = held.slice(closed + close.length).replace(/^\s+/, '');
      held = undefined;
      afterThought = after === '';
      return { thought: true, ...(after ? { text: after } : {}), ...(thought ? { closed: thought } : {}) };
    },
    /**
     * The reply ended. `cut`: at its length limit, where held text stays thoughts (the model was
     * still thinking), returned as `thoughts`. Otherwise held text was the answer: it is returned
     * as `answer`, to be given as text.
     */
    end(cut: boolean): { answer?: string; thoughts?: string } {
      if (held === undefined) return {};
      const text = held;
      held = undefined;
      if (cut) return text.trim() ? { thoughts: text.trim() } : {};
      if (text.trim() !== '') opensInPrompt.delete(model);
      return text ? { answer: text } : {};
    },
  };
}
