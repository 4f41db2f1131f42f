import { describe, expect, it } from 'vitest';
import { createCallWatch } from '../../lib/local-agent/call-watch';
import { parseToolCalls } from '../../lib/local-agent/parse-tool-calls';

const hermes = (slug: string) => `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${slug}"}}</tool_call>\n`;
const lfm2 = '<|tool_call_start|>[add_to_cart(slug="mug")]<|tool_call_end|>';

/** The watch's reading of `reply` cut into chunks of `size`. */
function watch(reply: string, size: number) {
  const calls = createCallWatch();
  let before = '';
  for (let start = 0; start < reply.length; start += size) before += calls.push(reply.slice(start, start + size));
  return { firstCallAt: calls.firstCallAt, loopCut: calls.loopCut, before };
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
      for (const size of [1, 2, 3, 5, 7, 13]) expect(watch(reply, size)).toMatchObject({ firstCallAt: whole.firstCallAt, loopCut: whole.loopCut });
      expect(whole.before).toBe(reply.slice(0, whole.firstCallAt));
      // The reading ends with the third copy in a row, once a fourth closed.
      const copy = reply.includes(lfm2) ? lfm2 : `${hermes('mug').trimEnd()}`;
      expect(whole.loopCut?.closing).toBe('');
      const kept = reply.slice(0, whole.loopCut?.end);
      expect(kept.endsWith(copy)).toBe(true);
      expect(kept.split(copy).length - 1).toBeLessThan(reply.split(copy).length - 1);
    });
  }

  it('finds where the call starts, after the reasoning that mentions one', () => {
    const reply = replies['a call mentioned in reasoning, then one made and looped'];
    expect(watch(reply, 4).firstCallAt).toBe(reply.indexOf('<tool_call>{'));
  });

  it('sees no loop where the model moves on to another call after three copies', () => {
    expect(watch(`${hermes('mug')}${hermes('mug')}${hermes('mug')}${hermes('cup')}`, 3).loopCut).toBeUndefined();
  });

  it('sees no loop where another call comes between copies', () => {
    expect(watch(`${hermes('mug')}${hermes('mug')}${hermes('cup')}${hermes('mug')}${hermes('mug')}`, 3).loopCut).toBeUndefined();
  });
});

describe('createCallWatch, on loops other than one readable call closed over and over', () => {
  /**
   * What the model reads back of `reply` (all of it where the watch sees no loop), the same
   * however it is cut into chunks; `cutOff`: the engine's token cap cut it off at its end.
   */
  function kept(reply: string, cutOff = false): string {
    const cuts = [reply.length, 1, 3, 7, 13].map((size) => {
      const calls = createCallWatch();
      for (let start = 0; start < reply.length; start += size) calls.push(reply.slice(start, start + size));
      if (cutOff) calls.endLoop();
      return calls.loopCut;
    });
    for (const cut of cuts) expect(cut).toEqual(cuts[0]);
    return cuts[0] === undefined ? reply : reply.slice(0, cuts[0].end) + cuts[0].closing;
  }
  const call = (name: string, slug: string) => `<tool_call>{"name": "${name}", "arguments": {"slug": "${slug}"}}</tool_call>\n`;
  const mugs = (count: number) => Array<string>(count).fill('add_to_cart(slug="mug")').join(', ');

  it('ends a reply that calls a tool not offered over and over, at the third copy', () => {
    const copy = call('checkout', 'mug');
    expect(kept(copy.repeat(10))).toBe(copy.repeat(3).trimEnd());
  });

  it('lets a reply alternate two calls as long as it likes (a square: forward, left, …), and ends one the cap cut off after the first pair', () => {
    const pair = hermes('mug') + hermes('cup');
    expect(kept(`Sure. ${pair.repeat(10)}`)).toBe(`Sure. ${pair.repeat(10)}`);
    expect(kept(`Sure. ${pair.repeat(10)}`, true)).toBe(`Sure. ${pair.trimEnd()}`);
  });

  it('ends a list of calls in one tag that runs on without closing at the third copy, and closes the list and the tag', () => {
    const reply = `<|tool_call_start|>[${'add_to_cart(slug="mug"), '.repeat(20)}`;
    expect(kept(reply)).toBe(`<|tool_call_start|>[${mugs(3)}]<|tool_call_end|>`);
    const object = '{"name": "add_to_cart", "arguments": {"slug": "mug"}}';
    expect(kept(`<tool_call>[${`${object}, `.repeat(20)}`)).toBe(`<tool_call>[${[object, object, object].join(', ')}]</tool_call>`);
  });

  it('ends a list whose calls close and reopen their strings as the parser reads them', () => {
    const note = "add_note(text='I'm done :)')";
    const reply = `<|tool_call_start|>[${`${note}, `.repeat(20)}`;
    expect(kept(reply)).toBe(`<|tool_call_start|>[${[note, note, note].join(', ')}]<|tool_call_end|>`);
    expect(parseToolCalls(kept(reply), new Set(['add_note'])).calls).toEqual(Array(3).fill({ name: 'add_note', arguments: { text: "I'm done :)" } }));
  });

  it('ends a reply that opens call tags over and over without closing them at the third copy, and closes its tag', () => {
    const copy = hermes('mug').replace('</tool_call>', '');
    expect(kept(copy.repeat(10))).toBe(`${copy.repeat(3).trimEnd()}</tool_call>`);
  });

  it('reads each call of a tag, so a tag that holds a run of calls, written over until the cap, is kept to its first copy', () => {
    const tag = '<|tool_call_start|>[add_to_cart(slug="mug"), add_to_cart(slug="cup")]<|tool_call_end|>';
    expect(kept(tag.repeat(20), true)).toBe(tag);
    const list = `<|tool_call_start|>[${'add_to_cart(slug="mug"), add_to_cart(slug="cup"), '.repeat(20)}`;
    expect(kept(list, true)).toBe(tag);
  });

  it('ends a looping call written with a closing bracket too many, as the parser reads it, at the third copy', () => {
    const copies = ['<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug"}}}</tool_call>\n', '<|tool_call_start|>add_to_cart(slug="mug"))<|tool_call_end|>'];
    for (const copy of copies) {
      expect(parseToolCalls(copy, new Set(['add_to_cart'])).calls).toHaveLength(1);
      // The stray bracket is not a call of its own: the copies are still one call written over.
      expect(parseToolCalls(kept(copy.repeat(10)), new Set(['add_to_cart'])).calls).toHaveLength(3);
    }
  });

  it('ends a list of calls in one tag written over with a closing bracket too many at the third copy, each call whole', () => {
    const object = '{"name": "add_to_cart", "arguments": {"slug": "mug"}}';
    expect(kept(`<tool_call>[${`${object}}, `.repeat(10)}`)).toBe(`<tool_call>[${object}}, ${object}}, ${object}]</tool_call>`);
    const call = 'add_to_cart(slug="mug")';
    expect(kept(`<|tool_call_start|>[${`${call}), `.repeat(10)}`)).toBe(`<|tool_call_start|>[${call}), ${call}), ${call}]<|tool_call_end|>`);
  });

  it('reads a list fenced inside a tag from its first call on, so that a loop in it is kept as any other', () => {
    const [f, g] = ['{"name": "f", "arguments": {"x": 1}}', '{"name": "g", "arguments": {"y": 2}}'];
    const fenced = '<tool_call>\n```json\n';
    expect(kept(`${fenced}[${`${f}, ${g}, `.repeat(4)}{"name`, true)).toBe(`${fenced}[${f}, ${g}]</tool_call>`);
    expect(kept(`<|tool_call_start|>\`\`\`python\n[${'f(x=1), g(y=2), '.repeat(4)}f(x=`, true)).toBe('<|tool_call_start|>```python\n[f(x=1), g(y=2)]<|tool_call_end|>');
    expect(kept(fenced + `${f}\n`.repeat(6))).toBe(`${fenced}${f}\n${f}\n${f}</tool_call>`);
  });

  it('keeps a run the cap cut off to its first copy where the run ends with a call written three times', () => {
    const [mug, cup] = [hermes('mug'), hermes('cup')];
    const run = mug + mug + mug + cup;
    expect(kept(run.repeat(5) + mug + mug + mug, true)).toBe(run.trimEnd());
  });

  it('sees no loop in different calls in one list, nor in calls that take turns three times and stop', () => {
    const list = `<|tool_call_start|>[${['a', 'b', 'c', 'd', 'e'].map((slug) => `add_to_cart(slug="${slug}")`).join(', ')}]<|tool_call_end|>`;
    expect(watch(list.repeat(3), 5).loopCut).toBeUndefined();
    expect(watch(`${hermes('mug')}${hermes('cup')}`.repeat(3) + hermes('mug'), 5).loopCut).toBeUndefined();
    const attempts = ['mug', 'cup', 'cap', 'hat', 'box'].map((slug) => call('checkout', slug)).join('');
    expect(watch(attempts, 4).loopCut).toBeUndefined();
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
      expect(kept(start + pair.repeat(3) + hermes('mug').slice(0, 20), true)).toBe(expected.trimEnd());
    }
  });
});
