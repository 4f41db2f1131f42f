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

describe('createCallWatch, on loops other than one readable call closed over and over', () => {
  /** What the watch keeps of `reply` (all of it where it sees no loop), the same however it is cut into chunks. */
  function kept(reply: string): string {
    const whole = watch(reply, reply.length);
    for (const size of [1, 3, 7, 13]) expect(watch(reply, size).loopEnd).toBe(whole.loopEnd);
    return reply.slice(0, whole.loopEnd);
  }
  const call = (name: string, slug: string) => `<tool_call>{"name": "${name}", "arguments": {"slug": "${slug}"}}</tool_call>\n`;

  it('ends a reply that calls a tool not offered over and over, at the third copy', () => {
    const copy = call('checkout', 'mug');
    expect(kept(copy.repeat(10))).toBe(copy.repeat(3).trimEnd());
  });

  it('ends a reply that alternates two calls, after the first pair', () => {
    const pair = hermes('mug') + hermes('cup');
    expect(kept(`Sure. ${pair.repeat(10)}`)).toBe(`Sure. ${pair.trimEnd()}`);
  });

  it('ends a list of calls in one tag that runs on without closing, at the third copy', () => {
    const reply = `<|tool_call_start|>[${'add_to_cart(slug="mug"), '.repeat(20)}`;
    expect(kept(reply)).toBe('<|tool_call_start|>[add_to_cart(slug="mug"), add_to_cart(slug="mug"), add_to_cart(slug="mug")');
    const json = `<tool_call>[${'{"name": "add_to_cart", "arguments": {"slug": "mug"}}, '.repeat(20)}`;
    expect(kept(json).split('"mug"')).toHaveLength(4);
  });

  it('ends a reply that opens call tags over and over without closing them, at the third copy', () => {
    const copy = hermes('mug').replace('</tool_call>', '');
    expect(kept(copy.repeat(10))).toBe(copy.repeat(3));
  });

  it('sees no loop in different calls in one list, nor in calls that take turns three times and stop', () => {
    const list = `<|tool_call_start|>[${['a', 'b', 'c', 'd', 'e'].map((slug) => `add_to_cart(slug="${slug}")`).join(', ')}]<|tool_call_end|>`;
    expect(watch(list.repeat(3), 5).loopEnd).toBeUndefined();
    expect(watch(`${hermes('mug')}${hermes('cup')}`.repeat(3) + hermes('mug'), 5).loopEnd).toBeUndefined();
    const attempts = ['mug', 'cup', 'cap', 'hat', 'box'].map((slug) => call('checkout', slug)).join('');
    expect(watch(attempts, 4).loopEnd).toBeUndefined();
  });

  it('ends a reply cut off inside a fourth copy of a pair of calls after the first pair, wherever the loop began', () => {
    const pair = hermes('mug') + hermes('cup');
    const loops: Array<[string, string]> = [
      ['', pair],
      [hermes('cap'), hermes('cap') + pair],
      // Begun with the cup, the loop is `cup, mug, cup, mug, …`: its first pair is kept.
      [hermes('cap') + hermes('cup'), hermes('cap') + hermes('cup') + hermes('mug')],
    ];
    for (const [start, expected] of loops) {
      const calls = createCallWatch(names);
      const reply = start + pair.repeat(3) + hermes('mug').slice(0, 20);
      calls.push(reply);
      expect(calls.endLoop()).toBe(true);
      expect(reply.slice(0, calls.loopEnd)).toBe(expected.trimEnd());
    }
  });
});
