import { describe, expect, it } from 'vitest';
import { createInlineThoughtWatch } from '../../lib/engines/inline-thought-watch';

const readAll = (pieces: string[]) => {
  const watch = createInlineThoughtWatch();
  return pieces.map((piece) => watch.read(piece));
};

describe('createInlineThoughtWatch', () => {
  it('takes a reply that starts with words as answering at once', () => {
    expect(readAll(['Hello', ' there'])).toEqual(['answering', 'answering']);
  });

  it('says thinking from an opening tag to its close, however the pieces cut the tags', () => {
    expect(readAll(['\n', '<th', 'ink>', 'The person wants', ' the cart.</th', 'ink>\n\n', 'Done.'])).toEqual([
      'undecided',
      'undecided',
      'undecided',
      'thinking',
      'thinking',
      'answering',
      'answering',
    ]);
  });

  it('takes an opening and closing tag in one piece as answering', () => {
    expect(readAll(['<think>\n\n</think>\n\nHi'])).toEqual(['answering']);
  });

  it('takes an empty block, however it is cut, as no thinking', () => {
    expect(readAll(['<think>', '\n\n', '</', 'think>', '\n\nHi'])).toEqual(['undecided', 'undecided', 'undecided', 'answering', 'answering']);
  });

  it('takes a `<` that opens no reasoning as the first word', () => {
    expect(readAll(['<tool_call>'])).toEqual(['answering']);
    expect(readAll(['<', 'b>bold</b>'])).toEqual(['undecided', 'answering']);
  });

  it('takes a tag that comes after words as words', () => {
    expect(readAll(['Sure. <think>', 'more'])).toEqual(['answering', 'answering']);
  });
});
