import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../lib/local-agent/parse-tool-calls';

const names = new Set(['search', 'open_cart', 'add_to_cart']);
const parse = (raw: string, offered: ReadonlySet<string> = names) => parseToolCalls(raw, offered);
const search = (query: string) => ({ name: 'search', arguments: { query } });

describe('the four shapes', () => {
  it('reads LFM2 tags with pythonic calls, prose before and after kept', () => {
    const result = parse('Looking.<|tool_call_start|>[search(query="caps")]<|tool_call_end|>\nDone.');
    expect(result).toEqual({ text: 'Looking.\nDone.', calls: [search('caps')], errors: [] });
  });

  it('reads several pythonic calls in one LFM2 list and several LFM2 blocks', () => {
    const oneList = parse("<|tool_call_start|>[search(query='a'), open_cart()]<|tool_call_end|>");
    expect(oneList.calls).toEqual([search('a'), { name: 'open_cart', arguments: {} }]);
    const twoBlocks = parse(
      '<|tool_call_start|>[search(query="a")]<|tool_call_end|><|tool_call_start|>[search(query="b")]<|tool_call_end|>',
    );
    expect(twoBlocks.calls).toEqual([search('a'), search('b')]);
  });

  it('reads JSON inside LFM2 tags, as an array or a bare object', () => {
    const array = parse('<|tool_call_start|>[{"name": "search", "arguments": {"query": "a"}}]<|tool_call_end|>');
    expect(array.calls).toEqual([search('a')]);
    const object = parse('<|tool_call_start|>{"name": "search", "arguments": {"query": "a"}}<|tool_call_end|>');
    expect(object.calls).toEqual([search('a')]);
  });

  it('reads an empty LFM2 list as no call and no error', () => {
    expect(parse('<|tool_call_start|>[]<|tool_call_end|>')).toEqual({ text: '', calls: [], errors: [] });
  });

  it('reads Qwen/Hermes tags, one or several, and objects written one after another in one tag', () => {
    const two = parse(
      'Both. <tool_call>{"name": "search", "arguments": {"query": "a"}}</tool_call>\n' +
        '<tool_call>\n{"name": "search", "arguments": {"query": "b"}}\n</tool_call>',
    );
    expect(two).toEqual({ text: 'Both.', calls: [search('a'), search('b')], errors: [] });
    const oneTag = parse('<tool_call>{"name": "search", "arguments": {"query": "a"}}\n{"name": "open_cart"}</tool_call>');
    expect(oneTag.calls).toEqual([search('a'), { name: 'open_cart', arguments: {} }]);
  });

  it('reads a ```json fence and a bare ``` fence, keeping the prose around them', () => {
    const json = parse('Let me look.\n```json\n{"name": "search", "arguments": {"query": "a"}}\n```\nOne moment.');
    expect(json).toEqual({ text: 'Let me look.\n\nOne moment.', calls: [search('a')], errors: [] });
    const bare = parse('```\n[{"name": "search", "arguments": {"query": "a"}}, {"name": "open_cart", "arguments": {}}]\n```');
    expect(bare.calls).toEqual([search('a'), { name: 'open_cart', arguments: {} }]);
  });

  it('reads a fenced call after a fence mentioned in prose and a code block, as CommonMark pairs them', () => {
    const reply = 'Use ``` for code.\n```\nplain\n```\n```json\n{"name": "search", "arguments": {"query": "a"}}\n```';
    expect(parse(reply)).toEqual({ text: 'Use ``` for code.\n```\nplain\n```', calls: [search('a')], errors: [] });
    // A fence a call's brace follows on the prose's own line opens the block there, as small models write it.
    expect(parse('Here: ```json {"name": "search", "arguments": {"query": "a"}}\n```').calls).toEqual([search('a')]);
  });

  it('leaves a fence that holds JSON but not a call as prose', () => {
    const reply = 'The data:\n```json\n{"price": 12}\n```';
    expect(parse(reply)).toEqual({ text: reply, calls: [], errors: [] });
  });

  it('reads the whole reply as a JSON call, an array of calls, or a Prompt API envelope', () => {
    expect(parse('{"name": "search", "arguments": {"query": "a"}}').calls).toEqual([search('a')]);
    expect(parse('[{"name": "search", "arguments": {"query": "a"}}, {"name": "open_cart", "arguments": {}}]').calls)
      .toEqual([search('a'), { name: 'open_cart', arguments: {} }]);
    expect(parse('{"type": "tool_call", "name": "open_cart", "arguments": {}}')).toEqual({
      text: '',
      calls: [{ name: 'open_cart', arguments: {} }],
      errors: [],
    });
  });

  it("reads a Prompt API message envelope's text as prose, without reading markup inside it", () => {
    const result = parse('{"type": "message", "text": "Use {\\"name\\": \\"search\\"} yourself."}');
    expect(result).toEqual({ text: 'Use {"name": "search"} yourself.', calls: [], errors: [] });
  });

  it('leaves JSON that is not a call, or JSON inside prose, as prose', () => {
    for (const reply of [
      '{"name": "Alice", "age": 3}',
      'Here: {"name": "search", "arguments": {"query": "a"}} as you asked.',
      '{"name": "search"}{"name": "search", "arguments": {"query": "a"}}',
    ]) {
      expect(parse(reply)).toEqual({ text: reply, calls: [], errors: [] });
    }
  });
});

describe('the order in which shapes are tried', () => {
  it('reads call tags first and then leaves a fence or JSON in the prose alone', () => {
    const reply =
      '<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>Or:\n```json\n{"name": "search", "arguments": {"query": "a"}}\n```';
    const result = parse(reply);
    expect(result.calls).toEqual([{ name: 'open_cart', arguments: {} }]);
    expect(result.text).toBe('Or:\n```json\n{"name": "search", "arguments": {"query": "a"}}\n```');
  });

  it('reads both kinds of tag in the order they were written', () => {
    const result = parse(
      '<tool_call>{"name": "open_cart", "arguments": {}}</tool_call><|tool_call_start|>[search(query="a")]<|tool_call_end|>',
    );
    expect(result.calls).toEqual([{ name: 'open_cart', arguments: {} }, search('a')]);
  });

  it('reads a fence before trying the whole reply', () => {
    const reply = '```json\n{"name": "search", "arguments": {"query": "a"}}\n```';
    expect(parse(reply).calls).toEqual([search('a')]);
  });

  it('tries no other shape when a tag held nothing readable', () => {
    const result = parse('<tool_call>oops</tool_call>```json\n{"name": "search", "arguments": {"query": "a"}}\n```');
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
  });
});

describe('repairs', () => {
  it('runs an unclosed tag to the next call', () => {
    const result = parse(
      '<tool_call>{"name": "search", "arguments": {"query": "a"}}<tool_call>{"name": "open_cart", "arguments": {}}</tool_call> ok',
    );
    expect(result).toEqual({ text: 'ok', calls: [search('a'), { name: 'open_cart', arguments: {} }], errors: [] });
  });

  it('runs an unclosed tag to the end', () => {
    expect(parse('Hi <|tool_call_start|>[search(query="a")]').calls).toEqual([search('a')]);
    expect(parse('Hi <|tool_call_start|>[search(query="a")]').text).toBe('Hi');
  });

  it('closes a JSON object cut short, dropping a value the end cut off', () => {
    expect(parse('<tool_call>{"name": "search", "arguments": {"query": "a"}').calls).toEqual([search('a')]);
    expect(parse('{"name": "search", "arguments": {"query": "a"').calls).toEqual([search('a')]);
    expect(parse('<tool_call>{"name": "open_cart", "arguments": {"note": "hal').calls).toEqual([
      { name: 'open_cart', arguments: {} },
    ]);
  });

  it('does not guess a tool name the end cut off', () => {
    const result = parse('<tool_call>{"name": "sea');
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual([`Couldn't read a tool call: it was cut off before the tool name in "{"name": "sea".`]);
  });

  it('accepts trailing commas and single quotes in one lenient pass', () => {
    expect(parse('<tool_call>{"name": "search", "arguments": {"query": "a",},}</tool_call>').calls).toEqual([search('a')]);
    expect(parse("<tool_call>{'name': 'search', 'arguments': {'query': 'a'}}</tool_call>").calls).toEqual([search('a')]);
  });

  it('never alters valid JSON with an apostrophe inside a string', () => {
    expect(parse(`<tool_call>{"name": "search", "arguments": {"query": "what's new"}}</tool_call>`).calls).toEqual([
      search("what's new"),
    ]);
    expect(parse(`<tool_call>{"name": "search", "arguments": {"query": "it's 'big'",}}</tool_call>`).calls).toEqual([
      search("it's 'big'"),
    ]);
  });

  it('reads parameters when arguments is missing, and prefers arguments when both are there', () => {
    expect(parse('{"name": "search", "parameters": {"query": "a"}}').calls).toEqual([search('a')]);
    expect(parse('<tool_call>{"name": "search", "parameters": {"query": "b"}, "arguments": {"query": "a"}}</tool_call>').calls)
      .toEqual([search('a')]);
  });

  it('reads string arguments as JSON', () => {
    expect(parse('<tool_call>{"name": "search", "arguments": "{\\"query\\": \\"a\\"}"}</tool_call>').calls).toEqual([
      search('a'),
    ]);
    expect(parse('<tool_call>{"name": "open_cart", "arguments": ""}</tool_call>').calls).toEqual([
      { name: 'open_cart', arguments: {} },
    ]);
  });

  it('decodes JSON escapes, and keeps an escape JSON lacks as written in the lenient pass', () => {
    const strict = String.raw`<tool_call>{"name": "search", "arguments": {"query": "a\tb\"c\\d\u00e9\/"}}</tool_call>`;
    expect(parse(strict).calls).toEqual([search('a\tb"c\\dé/')]);
    const lenient = String.raw`<tool_call>{"name": "search", "arguments": {"query": 'x\q it\'s'}}</tool_call>`;
    expect(parse(lenient).calls).toEqual([search("x\\q it's")]);
  });

  it('reads a call tag whose body sits in a fence', () => {
    expect(parse('<tool_call>\n```json\n{"name": "search", "arguments": {"query": "a"}}\n```\n</tool_call>').calls)
      .toEqual([search('a')]);
  });
});

describe('errors', () => {
  it('lists the offered names joined by ", ", or says none', () => {
    const call = '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>';
    expect(parse(call).errors).toEqual(['Unknown tool "delete_all". Available now: search, open_cart, add_to_cart.']);
    expect(parse(call, new Set()).errors).toEqual(['Unknown tool "delete_all". Available now: none.']);
  });

  it('makes every unknown name an error, never a call, whatever the shape', () => {
    for (const reply of [
      '<|tool_call_start|>[delete_all()]<|tool_call_end|>',
      '{"name": "delete_all", "arguments": {}}',
      '```json\n{"name": "delete_all", "arguments": {}}\n```',
    ]) {
      const result = parse(reply);
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual(['Unknown tool "delete_all". Available now: search, open_cart, add_to_cart.']);
    }
  });

  it('refuses arguments that are not an object, stringified or not', () => {
    for (const value of ['[1]', '3', 'null', 'true', '"[1, 2]"', '"not json"']) {
      const result = parse(`<tool_call>{"name": "search", "arguments": ${value}}</tool_call>`);
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual(['Arguments for "search" must be a JSON object.']);
    }
  });

  it("says why it couldn't read a call and quotes the start of it, capped", () => {
    expect(parse('<tool_call>{"name": "search", "arguments": {query: 1}}</tool_call>').errors).toEqual([
      `Couldn't read a tool call: a key is not quoted in "{"name": "search", "arguments": {query: 1}}".`,
    ]);
    const long = parse(`<tool_call>${'junk '.repeat(100)}</tool_call>`).errors[0] ?? '';
    expect(long).toBe(`Couldn't read a tool call: it is neither JSON nor name(argument=value) in "${'junk '.repeat(12)}…".`);
  });

  it('reports an empty call tag and a call with no name', () => {
    expect(parse('<tool_call></tool_call>').errors).toEqual(["Couldn't read a tool call: the tool call is empty."]);
    expect(parse('<tool_call>{"arguments": {}}</tool_call>').errors).toEqual([
      `Couldn't read a tool call: it has no "name" in "{"arguments": {}}".`,
    ]);
  });

  it('reports a whole reply that starts like a JSON call but is not JSON, keeping it as prose', () => {
    const reply = '{"name": "search", "arguments": {query}}';
    const result = parse(reply);
    expect(result.text).toBe(reply);
    expect(result.errors).toEqual([`Couldn't read a tool call: a key is not quoted in "${reply}".`]);
  });
});

describe('reasoning', () => {
  it('removes <think>…</think>', () => {
    expect(parse('<think>Maybe search.</think>Searching.<tool_call>{"name": "search", "arguments": {"query": "a"}}</tool_call>'))
      .toEqual({ text: 'Searching.', calls: [search('a')], errors: [] });
  });

  it('hides everything after an unclosed <think>, calls included', () => {
    expect(parse('Hm. <think>I could <tool_call>{"name": "search", "arguments": {"query": "a"}}</tool_call>')).toEqual({
      text: 'Hm.',
      calls: [],
      errors: [],
    });
  });

  it('drops everything up to a </think> that no <think> opened', () => {
    expect(parse('I should look.</think>Looking.<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>')).toEqual({
      text: 'Looking.',
      calls: [{ name: 'open_cart', arguments: {} }],
      errors: [],
    });
    expect(parse('<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>draft</think>Answer.')).toEqual({
      text: 'Answer.',
      calls: [],
      errors: [],
    });
  });

  it('keeps a later stray </think> as prose', () => {
    expect(parse('<think>One</think>Two</think>Three').text).toBe('Two</think>Three');
  });

  it('treats <think> inside a call tag as part of the call', () => {
    const result = parse('<tool_call>{"name": "search", "arguments": {"query": "<think>"}}</tool_call>Done.');
    expect(result).toEqual({ text: 'Done.', calls: [search('<think>')], errors: [] });
  });
});

describe('fenced calls a model closed its own way', () => {
  const call = '{"name": "add_to_cart", "parameters": {"slug": "mug"}}';
  it.each([
    'Adding.\n```json\n' + call + '\n```Done! Added.',
    '```json\n' + call + '\n```json',
    '```json ' + call + '```Done',
    'Adding.\n```json\n' + call + '\n```.',
  ])('reads the call of %j', (reply) => {
    expect(parseToolCalls(reply, new Set(['add_to_cart'])).calls).toEqual([{ name: 'add_to_cart', arguments: { slug: 'mug' } }]);
  });
});

describe('limits and bad input', () => {
  it('does not read a call lying past the first 32 KB of a 40 KB reply', () => {
    const call = '<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>';
    const prose = 'word '.repeat(8 * 1024);
    expect(parse(`${prose}${call}`.padEnd(40 * 1024, '.')).calls).toEqual([]);
    expect(parse(`${call}${prose}`.padEnd(40 * 1024, '.')).calls).toEqual([{ name: 'open_cart', arguments: {} }]);
    expect(parse(`${prose}${call}`).text.length).toBeLessThanOrEqual(32 * 1024);
  });

  it('runs no call the 32 KB read limit cuts (read as cut short, it would lack what came after), and says it was cut', () => {
    const cut = "Couldn't read a tool call: a call was cut off where the reply passes the 32 KB that is read.";
    const names = new Set(['fill_message']);
    const long = 'x'.repeat(3000);
    const call = `{"name": "fill_message", "arguments": {"to": "ann", "body": "${long}", "send": true}}`;
    const before = 'word '.repeat(6 * 1024);
    for (const reply of [`${before}<tool_call>${call}</tool_call>`, `${before}<|tool_call_start|>${call}<|tool_call_end|>`, `${before}\n\`\`\`json\n${call}\n\`\`\``, call.replace(long, 'x'.repeat(40_000))]) {
      const result = parseToolCalls(reply, names);
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual([cut]);
      // Neither run nor shown: what the reply said before it is its words.
      expect(result.text).toBe(reply.startsWith(before) ? before.trim() : '');
    }
    // A call closed before the cut runs; prose, or code that is no call, cut there says nothing.
    const closed = `${'word '.repeat(5 * 1024)}<tool_call>{"name": "fill_message", "arguments": {}}</tool_call>${'.'.repeat(10_000)}`;
    expect(parseToolCalls(closed, names)).toMatchObject({ calls: [{ name: 'fill_message', arguments: {} }], errors: [] });
    expect(parseToolCalls('word '.repeat(8 * 1024), names).errors).toEqual([]);
    expect(parseToolCalls(`${before}\n\`\`\`python\nprint("${long}")\n\`\`\``, names).errors).toEqual([]);
  });

  it('reads at most 64 calls and errors from one reply, says so once, and gives a repeated error once', () => {
    const empty = parse('<tool_call>'.repeat(100));
    expect(empty.errors).toEqual([
      "Couldn't read a tool call: the tool call is empty.",
      "Couldn't read a tool call: a reply may hold at most 64 calls; the rest were not read.",
    ]);
    const looping = parse('<tool_call>{"name": "nope", "arguments": {}}</tool_call>'.repeat(80));
    expect(looping.errors).toHaveLength(2);
    expect(looping.errors[0]).toMatch(/^Unknown tool "nope"\. Available now: /);
    const many = parse(`<|tool_call_start|>[${'open_cart(), '.repeat(100)}]<|tool_call_end|>`);
    expect(many.calls).toHaveLength(64);
    expect(many.errors).toHaveLength(1);
    // Calls read block by block count toward the one limit together.
    const block = (language: string, count: number) => `\`\`\`${language}\n[${Array(count).fill('{"name": "open_cart", "arguments": {}}').join(', ')}]\n\`\`\``;
    const blocks = parse(`${block('json', 63)}\n${block('js', 64)}`);
    expect(blocks.calls).toHaveLength(64);
    expect(blocks.errors).toEqual(["Couldn't read a tool call: a reply may hold at most 64 calls; the rest were not read."]);
  });

  it('never cuts the read limit inside a character', () => {
    const { text } = parse('a' + '😀'.repeat(20_000));
    expect(text.length).toBeLessThanOrEqual(32 * 1024);
    expect(text.at(-1)).toBe('\ude00');
  });

  it('drops the code fence a tagged call was wrapped in, left empty', () => {
    const reply = 'I will search.\n```xml\n<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>\n```';
    expect(parse(reply)).toEqual({ text: 'I will search.', calls: [{ name: 'open_cart', arguments: {} }], errors: [] });
    // Two blocks side by side are two blocks: the close of one and the open of the next are not an empty one.
    const blocks = '```js\nlet a = 1;\n```\n\n```json\n{"name": "search", "arguments": {}}\n```';
    expect(parse(`${blocks}\n<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>`).text).toBe(blocks);
  });

  it('keeps a word in inline code beside a tagged call: it is no fence left empty', () => {
    expect(parse('Run ```ls``` first.\n<tool_call>{"name": "open_cart", "arguments": {}}</tool_call>').text).toBe('Run ```ls``` first.');
  });

  it('drops stray closing call tags from the prose', () => {
    expect(parse('Done.</tool_call> Really.<|tool_call_end|>')).toEqual({ text: 'Done. Really.', calls: [], errors: [] });
  });

  it('never throws on input of the wrong type', () => {
    const wrong = [undefined, null, 42, {}, ['<tool_call>']] as unknown as string[];
    for (const raw of wrong) expect(parseToolCalls(raw, names)).toEqual({ text: '', calls: [], errors: [] });
    expect(parseToolCalls('{"name": "x", "arguments": {}}', undefined as unknown as Set<string>).errors).toEqual([
      'Unknown tool "x". Available now: none.',
    ]);
  });

  it('refuses nesting deep enough to exhaust the stack, quickly', () => {
    const deep = `<tool_call>{"name": "search", "arguments": ${'['.repeat(30_000)}`;
    const result = parse(deep);
    expect(result.calls).toEqual([]);
    expect(result.errors[0]).toMatch(/^Couldn't read a tool call: it is nested too deeply/);
    expect(parse(`<|tool_call_start|>[search(query=${'('.repeat(30_000)}`).errors).toHaveLength(1);
  });

  it('keeps an own property named __proto__ without touching the prototype', () => {
    const result = parse('<tool_call>{"name": "search", "arguments": {"__proto__": {"polluted": true}}}</tool_call>');
    const argumentsObject = result.calls[0]?.arguments ?? {};
    expect(Object.getPrototypeOf(argumentsObject)).toBe(Object.prototype);
    expect(Object.keys(argumentsObject)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('prose never becomes a call', () => {
  it.each([
    'Use this format: [link text](url). Example: [search](https://example.com).',
    '[special delivery]',
    'for { fmt.Println("hello") }',
    'I will use the search tool, then open_cart.',
    'Call search(query="caps") if you like.',
    '[search(query="caps")] is how I would do it.',
    '```python\nsearch(query="caps")\n```',
    '```python\n[search(query="caps")]\n```',
  ])('%s', (reply) => {
    expect(parse(reply)).toEqual({ text: reply, calls: [], errors: [] });
  });
});

describe('the model\'s words quoted back', () => {
  it('cuts a long unknown name between characters, never through an emoji', () => {
    const name = `${'a'.repeat(63)}😀tail`;
    const { errors } = parseToolCalls(`<tool_call>{"name": "${name}", "arguments": {}}</tool_call>`, new Set(['search']));
    expect(errors).toEqual([`Unknown tool "${'a'.repeat(63)}…". Available now: search.`]);
  });
});
