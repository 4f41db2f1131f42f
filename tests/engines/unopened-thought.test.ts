import { describe, expect, it } from 'vitest';
import { readUnopenedThought } from '@/lib/engines/openai/unopened-thought';

/** The reply read in pieces of `size` characters: what was thoughts, and the text given. */
function readInPieces(opensInPrompt: Set<string>, reply: string, size: number) {
  const reader = readUnopenedThought(opensInPrompt, 'r1');
  let text = '';
  let thought = false;
  for (let at = 0; at < reply.length; at += size) {
    const piece = reader.read(reply.slice(at, at + size));
    thought ||= piece.thought;
    text += piece.text ?? '';
  }
  text += reader.end(false) ?? '';
  return { text, thought };
}

describe('readUnopenedThought', () => {
  const thought = 'The forest mug is in stock. '.repeat(30);

  it('learns, and then reads, a thought closed by a tag split across pieces of any size', () => {
    for (let size = 1; size <= 12; size += 1) {
      const opensInPrompt = new Set<string>();
      // The first reply teaches it, as it comes.
      expect(readInPieces(opensInPrompt, `${thought}</think>Take it.`, size), `size ${size}`).toEqual({ text: `${thought}</think>Take it.`, thought: false });
      expect(opensInPrompt.has('r1'), `size ${size}`).toBe(true);
      expect(readInPieces(opensInPrompt, `${thought}</think>\n\nIt is in stock.`, size), `size ${size}`).toEqual({ text: 'It is in stock.', thought: true });
    }
  });

  it('does not learn from a reply that opens its own thought, however it is cut', () => {
    for (let size = 1; size <= 12; size += 1) {
      const opensInPrompt = new Set<string>();
      readInPieces(opensInPrompt, `<think>${thought}</think>Take it.`, size);
      expect(opensInPrompt.has('r1'), `size ${size}`).toBe(false);
    }
  });
});
