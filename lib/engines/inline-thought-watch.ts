/**
 * Reads the start of a reply for reasoning written into its text (`<think>…</think>`, as Qwen3 or
 * DeepSeek-R1 write theirs where no server takes it apart): until that reasoning closes, no word of
 * the answer has come, and the model is thinking.
 */
export type ReplyStart = 'undecided' | 'thinking' | 'answering';

const open = '<think>';
const close = '</think>';

export function createInlineThoughtWatch(): { read(text: string): ReplyStart } {
  let state: ReplyStart = 'undecided';
  // An opening tag read, and nothing but white space after it yet: an empty block (`<think>\n\n</think>`,
  // as a model told not to think may write) is no thinking.
  let opened = false;
  // The text not yet decided on: the start of the reply, or the end of its reasoning (for a
  // closing tag split across pieces).
  let held = '';
  return {
    read(text) {
      if (state === 'answering') return state;
      held += text;
      if (state === 'undecided' && !opened) {
        const lead = held.trimStart();
        // Nothing but white space, or the start of an opening tag, says nothing yet.
        if (lead.length < open.length && open.startsWith(lead)) return state;
        if (!lead.startsWith(open)) return (state = 'answering');
        opened = true;
        held = lead.slice(open.length);
      }
      if (held.includes(close)) return (state = 'answering');
      // Thoughts begin with their first word; white space, or a closing tag begun, says nothing yet.
      if (state === 'undecided' && held.trim() !== '' && !close.startsWith(held.trim())) state = 'thinking';
      held = held.slice(-(close.length - 1));
      return state;
    },
  };
}
