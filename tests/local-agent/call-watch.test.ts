import { describe, expect, it } from 'vitest';
import { createCallWatch } from '../../lib/local-agent/call-watch';

const names = new Set(['add_to_cart']);
const hermes = (slug: string) => `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${slug}"}}</tool_call>\n`;
const lfm2 = '<|tool_call_start|>[add_to_cart(slug="mug")]<|tool_call_end|>';

/** The watch's reading of `reply` cut into chunks of `size`. */
function watch(reply: string, size: number) {
  const calls = createCallWatch(names);
  let before = '';
  for (let start = 0; start < reply.length; start += size) before += calls.push(reply.slice(start, start + size));
  return { firstCallAt: calls.firstCallAt, loopEnd: calls.loopEnd, before };
}

describe('createCallWatch', () => {
  const replies = {
    'a call mentioned in reasoning, then one made and looped': `Hi <think>I use <tool_call> tags</think> there ${hermes('mug')}Done ${hermes('mug')}${hermes('mug')}${hermes('mug')}tail`,
    'LFM2 calls': `Sure ${lfm2}${lfm2}mid${lfm2}${lfm2}${lfm2}more`,
    'an unclosed call that the next one ends': `${hermes('cup').replace('</tool_call>\n', '')}${hermes('mug')}${hermes('mug')}${hermes('mug')}${hermes('mug')}x`,
  };

  for (const [name, reply] of Object.entries(replies)) {
    it(`reads the same however the reply is cut into chunks: ${name}`, () => {
      const whole = watch(reply, reply.length);
      for (const size of [1, 2, 3, 5, 7, 13]) expect(watch(reply, size)).toMatchObject({ firstCallAt: whole.firstCallAt, loopEnd: whole.loopEnd });
      expect(whole.before).toBe(reply.slice(0, whole.firstCallAt));
      // The reading ends with the third copy in a row, once a fourth closed.
      const copy = reply.includes(lfm2) ? lfm2 : `${hermes('mug').trimEnd()}`;
      const kept = reply.slice(0, whole.loopEnd);
      expect(kept.endsWith(copy)).toBe(true);
      expect(kept.split(copy).length - 1).toBeLessThan(reply.split(copy).length - 1);
    });
  }

  it('finds where the call starts, after the reasoning that mentions one', () => {
    const reply = replies['a call mentioned in reasoning, then one made and looped'];
    expect(watch(reply, 4).firstCallAt).toBe(reply.indexOf('<tool_call>{'));
  });

  it('sees no loop where the model moves on to another call after three copies', () => {
    expect(watch(`${hermes('mug')}${hermes('mug')}${hermes('mug')}${hermes('cup')}`, 3).loopEnd).toBeUndefined();
  });

  it('sees no loop where another call comes between copies', () => {
    expect(watch(`${hermes('mug')}${hermes('mug')}${hermes('cup')}${hermes('mug')}${hermes('mug')}`, 3).loopEnd).toBeUndefined();
  });
});
