import { describe, expect, it } from 'vitest';
import { startCutState } from '../../../lib/local-agent/turn-cut/cut-state';
import { readAfterEnd } from '../../../lib/local-agent/turn-cut/read-after-end';

/** The state right after a turn-end token. */
const afterEnd = () => ({ ...startCutState(), ended: true });

describe('readAfterEnd', () => {
  it('holds the white space after a turn end while nothing follows it yet, and drops it at the end of the reply', () => {
    const state = afterEnd();
    expect(readAfterEnd(state, '\n\n', 0, false)).toBe(2);
    expect(state.held).toBe('\n\n');
    expect(state.shown).toBe('');
    const ended = afterEnd();
    expect(readAfterEnd(ended, '\n\n', 0, true)).toBe(2);
    expect(ended.held).toBe('');
    expect(ended.shown).toBe('');
  });

  it('holds the white space and a token\'s start until the token is whole', () => {
    const state = afterEnd();
    readAfterEnd(state, '\n<|im_st', 0, false);
    expect(state.held).toBe('\n<|im_st');
    expect(state.over).toBe(false);
  });

  it('starts where the scan has got to, not at the start of the text', () => {
    const state = afterEnd();
    const work = 'Done.<|im_end|>\n<|im_start|>user\nThanks!';
    expect(readAfterEnd(state, work, 'Done.<|im_end|>'.length, false)).toBe(work.length);
    expect(state.over).toBe(true);
  });

  it('ends the reply where a new turn follows, and stays after the end past another turn end', () => {
    const cut = afterEnd();
    expect(readAfterEnd(cut, '\n<|im_start|>user\nThanks!', 0, false)).toBe('\n<|im_start|>user\nThanks!'.length);
    expect(cut.over).toBe(true);
    const again = afterEnd();
    expect(readAfterEnd(again, ' <|endoftext|>more', 0, false)).toBe(' <|endoftext|>'.length);
    expect(again.ended).toBe(true);
    expect(again.over).toBe(false);
  });

  it('gives text that follows a lone turn end back to prose, white space and all', () => {
    const state = afterEnd();
    expect(readAfterEnd(state, ' Anything else?', 0, false)).toBe(0);
    expect(state.ended).toBe(false);
    expect(state.shown).toBe('');
  });
});
