import { describe, expect, it } from 'vitest';
import { readUnopenedThought } from '@/lib/engines/openai/unopened-thought';

/** The reply read in pieces of `size` characters: what was thoughts, and the text given. */
function readInPieces(opensInPrompt: Set<string>, reply: string, size: number) {
  const reader = readUnopenedThought(opensInPrompt, 'r1');
  let text = '';
  let thought = false;
  const closed: string[] = [];
  for (let at = 0; at < reply.length; at += size) {
    const piece = reader.read(reply.slice(at, at + size));
    thought ||= piece.thought;
    text += piece.text ?? '';
    if (piece.closed) closed.push(piece.closed);
  }
  text += reader.end(false).answer ?? '';
  return { text, thought, closed };
}

describe('readUnopenedThought', () => {
  const thought = 'The forest mug is in stock. '.repeat(30);

  it('learns, and then reads, a thought closed by a tag split across pieces of any size', () => {
    for (let size = 1; size <= 12; size += 1) {
      const opensInPrompt = new Set<string>();
      // The first reply teaches it, as it comes.
      expect(readInPieces(opensInPrompt, `${thought}</think>Take it.`, size), `size ${size}`).toEqual({ text: `${thought}</think>Take it.`, thought: false, closed: [] });
      expect(opensInPrompt.has('r1'), `size ${size}`).toBe(true);
      // The thought comes back whole as it closes, for the trace, however the tag was split.
      expect(readInPieces(opensInPrompt, `${thought}</think>\n\nIt is in stock.`, size), `size ${size}`).toEqual({ text: 'It is in stock.', thought: true, closed: [thought.trim()] });
    }
  });

  it('does not learn from a reply that opens its own thought, however it is cut', () => {
    for (let size = 1; size <= 12; size += 1) {
      const opensInPrompt = new Set<string>();
      readInPieces(opensInPrompt, `<think>${thought}</think>Take it.`, size);
      expect(opensInPrompt.has('r1'), `size ${size}`).toBe(false);
    }
  });

  it('gives held text as the answer where no `</think>` came, and as thoughts where the reply was cut off at its limit', () => {
    const opensInPrompt = new Set(['r1']);
    const answered = readUnopenedThought(opensInPrompt, 'r1');
    expect(answered.read('The mug is in stock.')).toEqual({ thought: true });
    expect(answered.end(false)).toEqual({ answer: 'The mug is in stock.' });
    // An answer after all: the model is no longer taken for one that opens its thought in the prompt.
    expect(opensInPrompt.has('r1')).toBe(false);

    const cut = readUnopenedThought(new Set(['r1']), 'r1');
    cut.read('Let me think about the mugs ');
    expect(cut.end(true)).toEqual({ thoughts: 'Let me think about the mugs' });
  });
});
