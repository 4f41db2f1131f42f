import { describe, expect, it } from 'vitest';
import { createFencedCallHolder } from '../../lib/local-agent/fenced-call-holder';

/** Every block with a name is a call, and ends the prose. */
const judge = { isCall: (block: string) => block.includes('"name"'), endsProse: () => true, mayBeCall: () => true };

/** Feeds `text` in chunks of `size` and returns what was shown, chunk by chunk, and at the end. */
function stream(text: string, size: number) {
  const holder = createFencedCallHolder(judge);
  const shown: string[] = [];
  for (let at = 0; at < text.length; at += size) shown.push(holder.push(text.slice(at, at + size)));
  shown.push(holder.flush());
  return shown;
}

describe('createFencedCallHolder', () => {
  it.each([1, 2, 3, 5, 100])('drops a fenced call in the middle of prose, in chunks of %i', (size) => {
    const shown = stream('Let me look.\n```json\n{"name": "search", "arguments": {}}\n```\nOne moment.', size);
    expect(shown.join('')).toBe('Let me look.\n\nOne moment.');
  });

  it.each([1, 4, 100])('shows a code block that is not a call once it closes, in chunks of %i', (size) => {
    const text = 'Here:\n```js\nconst a = `x`;\n```\nand ``inline`` code.';
    expect(stream(text, size).join('')).toBe(text);
  });

  it('passes prose at once and holds only what may start a fence', () => {
    const holder = createFencedCallHolder(judge);
    expect(holder.push('Searching for `mugs`')).toBe('Searching for `mugs');
    expect(holder.held()).toBe('`');
    expect(holder.push(' now.``')).toBe('` now.');
    expect(holder.push('`json\n{"name"')).toBe('');
    expect(holder.held()).toBe('```json\n{"name"');
  });

  it('judges an unclosed block at the end: a call is dropped, anything else shown', () => {
    expect(stream('Looking.\n```json\n{"name": "search"', 4).join('')).toBe('Looking.\n');
    expect(stream('Price list:\n```\nmug 12 USD', 4).join('')).toBe('Price list:\n```\nmug 12 USD');
  });

  it.each([1, 3, 100])('says where the first block judged a call opens in all the prose pushed, in chunks of %i', (size) => {
    const text = 'Here:\n```\nmug x2\n```\nLooking.\n```json\n{"name": "search"}\n```\nDone.\n```json\n{"name": "cart"}';
    const holder = createFencedCallHolder(judge);
    for (let at = 0; at < text.length; at += size) holder.push(text.slice(at, at + size));
    holder.flush();
    expect(holder.firstHiddenAt).toBe(text.indexOf('```json'));
    expect(createFencedCallHolder(judge).firstHiddenAt).toBeUndefined();
  });

  it.each([1, 3, 100])('says which hidden block ended the prose: the first that endsProse, in chunks of %i', (size) => {
    const ends = { ...judge, endsProse: (block: string) => block.includes('"add"') };
    const text = 'Ex:\n```json\n{"name": "fly"}\n```\nNow:\n```json\n{"name": "add"}\n```\nAnd:\n```json\n{"name": "add"}\n```';
    const holder = createFencedCallHolder(ends);
    let shown = '';
    for (let at = 0; at < text.length; at += size) shown += holder.push(text.slice(at, at + size));
    shown += holder.flush();
    expect(holder.hidden).toHaveLength(3);
    expect(holder.endingBlock).toBe(1);
    expect(shown.slice(0, holder.firstHiddenAt)).toBe('Ex:\n\nNow:\n');
    expect(createFencedCallHolder(ends).endingBlock).toBeUndefined();
  });

  /** The blocks a holder judges of `text` pushed `size` characters at a time, none a call; it must show all of the text. */
  function judgedBlocks(text: string, size: number): string[] {
    const judged: string[] = [];
    const holder = createFencedCallHolder({ isCall: (block) => judged.push(block) < 0, endsProse: () => false, mayBeCall: () => true });
    let shown = '';
    for (let at = 0; at < text.length; at += size) shown += holder.push(text.slice(at, at + size));
    expect(shown + holder.flush()).toBe(text);
    return judged;
  }

  it.each([1, 4, 100])('pairs fences as CommonMark does: a ``` sample stays inside a ```` block, and ```js opens a block, in chunks of %i', (size) => {
    const judged = judgedBlocks('Markdown:\n````md\n```js\nx\n```\n````\nThen ```` a ``` b ````` c.\nUse ``` here:\n```js\ny\n```\nEnd.', size);
    // "Use ``` here" mentions a fence: "```js" at a line's start cannot close it, and opens a block.
    expect(judged).toEqual(['````md\n```js\nx\n```\n````', '```` a ``` b `````', '```js\ny\n```']);
  });

  it.each([1, 4, 100])('reads a fence that prose follows on its line as a mention, so the blocks after it pair as written, in chunks of %i', (size) => {
    const judged = judgedBlocks('Use ``` for code.\n```\nplain\n```\n```\nmore\n```\nHere: ```json\n{"a": 1}\n```\nEnd.', size);
    // A fence a language follows on the prose's line ("Here: ```json") still opens a block there.
    expect(judged).toEqual(['```\nplain\n```', '```\nmore\n```', '```json\n{"a": 1}\n```']);
  });

  describe('a block whose start shows it is no call', () => {
    /** A block with `def` in it is code, never a call; one with a name is a call. */
    const codeJudge = { ...judge, mayBeCall: (start: string) => !start.includes('def') };

    /** What `text` pushed `size` characters at a time showed before `before` had all come, and in all. */
    function shownBefore(text: string, before: string, size: number) {
      const holder = createFencedCallHolder(codeJudge);
      let shown = '';
      let early = '';
      for (let at = 0; at < text.length; at += size) {
        if (at + size >= text.indexOf(before) + before.length && !early) early = shown || '(nothing)';
        shown += holder.push(text.slice(at, at + size));
      }
      return { early, all: shown + holder.flush(), holder };
    }

    it.each([1, 4, 9])('shows it as it streams, before its closing fence comes, in chunks of %i', (size) => {
      const text = 'A script:\n```python\ndef total(items):\n    return sum(items)\n```\nRun it.';
      const { early, all } = shownBefore(text, '\n```\nRun', size);
      expect(early).toContain('```python\ndef total(items):\n    return sum(items)');
      expect(all).toBe(text);
    });

    it('keeps back the backticks at its end, which may close it, and holds only those', () => {
      const holder = createFencedCallHolder(codeJudge);
      expect(holder.push('Code:\n```py\ndef f')).toBe('Code:\n```py\ndef f');
      expect(holder.push('():\n``')).toBe('():\n');
      expect(holder.held()).toBe('``');
      expect(holder.push('`\nDone.')).toBe('```\nDone.');
      expect(holder.hidden).toEqual([]);
    });

    it.each([1, 5, 100])('never hides a block it showed, and still judges the next one, in chunks of %i', (size) => {
      const text = 'Code:\n```\ndef f(): return {"name": 1}\n```\nNow:\n```json\n{"name": "search"}\n```';
      const { all, holder } = shownBefore(text, 'Now', size);
      expect(all).toBe('Code:\n```\ndef f(): return {"name": 1}\n```\nNow:\n');
      expect(holder.hidden).toEqual(['```json\n{"name": "search"}\n```']);
    });

    it.each([1, 3, 100])('shows a fence mentioned in prose, and judges the block a fence at a line\'s start opens after it, in chunks of %i', (size) => {
      const text = 'Use ``` to define code.\n```json\n{"name": "search"}\n```\nDone.';
      const { all, holder } = shownBefore(text, 'Done', size);
      expect(all).toBe('Use ``` to define code.\n\nDone.');
      expect(holder.hidden).toEqual(['```json\n{"name": "search"}\n```']);
    });
  });
});
