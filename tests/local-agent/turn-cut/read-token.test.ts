import { describe, expect, it } from 'vitest';
import { startCutState } from '../../../lib/local-agent/turn-cut/cut-state';
import { readToken } from '../../../lib/local-agent/turn-cut/read-token';

describe('readToken', () => {
  it('ends the reply at a made-up tool result, and passes one written in inline code on as text', () => {
    const made = startCutState();
    expect(readToken(made, 'Added.<tool_response>{"ok":true}', 6, false)).toBe('Added.<tool_response>{"ok":true}'.length);
    expect(made.over).toBe(true);
    const quoted = startCutState();
    expect(readToken(quoted, 'Use `<tool_response>` tags', 5, false)).toBe(6);
    expect(quoted.shown).toBe('<');
    expect(quoted.over).toBe(false);
  });

  it('reads the backtick before a scan from the state, for a token at the scan\'s first character', () => {
    const state = { ...startCutState(), before: '`' };
    expect(readToken(state, '<tool_response>` tags', 0, false)).toBe(1);
    expect(state.over).toBe(false);
  });

  it('drops a turn end and remembers it, and holds back what may start a token until it is whole', () => {
    const ended = startCutState();
    expect(readToken(ended, '<|im_end|>', 0, false)).toBe('<|im_end|>'.length);
    expect(ended.shown).toBe('');
    expect(ended.ended).toBe(true);
    const partial = startCutState();
    expect(readToken(partial, 'Done <|im_e', 5, false)).toBe('Done <|im_e'.length);
    expect(partial.held).toBe('<|im_e');
  });

  it('passes a `<` that starts no token on as text', () => {
    const state = startCutState();
    expect(readToken(state, 'a < b', 2, false)).toBe(3);
    expect(state.shown).toBe('<');
  });
});
