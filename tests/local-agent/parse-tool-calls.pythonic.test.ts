import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../lib/local-agent/parse-tool-calls';

/** The arguments of the one call in `<|tool_call_start|>[f(…)]<|tool_call_end|>`. */
function argumentsOf(argumentText: string): unknown {
  const result = parseToolCalls(`<|tool_call_start|>[f(${argumentText})]<|tool_call_end|>`, new Set(['f']));
  expect(result.errors).toEqual([]);
  return result.calls[0]?.arguments;
}

function errorsOf(list: string, names = new Set(['f', 'g'])) {
  return parseToolCalls(`<|tool_call_start|>${list}<|tool_call_end|>`, names);
}

describe('Python literals in pythonic calls', () => {
  it('reads True/False/None and their lowercase JSON spellings', () => {
    expect(argumentsOf('a=True, b=False, c=None, d=true, e=false, f=null')).toEqual({
      a: true, b: false, c: null, d: true, e: false, f: null,
    });
  });

  it('reads single- and double-quoted strings with Python escapes', () => {
    expect(argumentsOf(String.raw`a='it\'s', b="say \"hi\"", c='tab\there', d='\x41\u00e9\U0001F600', e='\101'`)).toEqual({
      a: "it's", b: 'say "hi"', c: 'tab\there', d: 'Aé😀', e: 'A',
    });
    expect(argumentsOf(String.raw`a='keep \, this', b=r'raw \n stays'`)).toEqual({ a: 'keep \\, this', b: 'raw \\n stays' });
  });

  it('reads raw newlines and triple quotes inside strings', () => {
    expect(argumentsOf("code='line1\nline2'")).toEqual({ code: 'line1\nline2' });
    expect(argumentsOf('doc="""a "quoted" word"""')).toEqual({ doc: 'a "quoted" word' });
  });

  it('reads ints with leading zeros, floats, negatives and other number forms', () => {
    expect(argumentsOf('month=07, price=0.95, delta=-3, big=1_000, tiny=1e-3, hex=0x1F, half=.5')).toEqual({
      month: 7, price: 0.95, delta: -3, big: 1000, tiny: 0.001, hex: 31, half: 0.5,
    });
  });

  it('reads lists, dicts, tuples and sets (as arrays), nested', () => {
    expect(argumentsOf("items=['a', 'b'], config={'on': True, 'n': {'deep': [1, (2, 3)]}}, pair=(1,), tags={'x', 'y'}, empty={}"))
      .toEqual({ items: ['a', 'b'], config: { on: true, n: { deep: [1, [2, 3]] } }, pair: [1], tags: ['x', 'y'], empty: {} });
    expect(argumentsOf('keys={1: "one", None: "none"}, grouped=(5)')).toEqual({ keys: { 1: 'one', null: 'none' }, grouped: 5 });
  });

  it('accepts white space around names and values, and a trailing comma', () => {
    expect(argumentsOf(' a = 1 ,\n b = "x" , ')).toEqual({ a: 1, b: 'x' });
  });

  it('reads dotted tool names', () => {
    const result = parseToolCalls('<|tool_call_start|>[shop.cart.add(qty=2)]<|tool_call_end|>', new Set(['shop.cart.add']));
    expect(result.calls).toEqual([{ name: 'shop.cart.add', arguments: { qty: 2 } }]);
  });

  it('reads a quote the model forgot to escape, in its lenient pass', () => {
    expect(argumentsOf("command='sed -n '1,5p' notes.txt'")).toEqual({ command: "sed -n '1,5p' notes.txt" });
  });
});

describe('pythonic calls that cannot be read', () => {
  it('refuses nested calls, bare names, positional arguments and bytes', () => {
    const reasons = ['g(x=f(y=1))', 'g(x=y)', 'g("a")', "g(x=b'z')", "g(x=f'{y}')"].map(
      (call) => errorsOf(`[${call}]`).errors[0],
    );
    expect(reasons).toEqual([
      `Couldn't read a tool call: nested calls are not allowed in "g(x=f(y=1))".`,
      `Couldn't read a tool call: "y" is not a value in "g(x=y)".`,
      `Couldn't read a tool call: arguments must be written name=value in "g("a")".`,
      `Couldn't read a tool call: bytes and f-strings are not allowed in "g(x=b'z')".`,
      `Couldn't read a tool call: bytes and f-strings are not allowed in "g(x=f'{y}')".`,
    ]);
  });

  it('keeps a good sibling of a call it cannot convert or whose tool is unknown', () => {
    const result = errorsOf("[f(a='1'), g(x=b'z'), nope(y=2), f(a='2')]");
    expect(result.calls).toEqual([
      { name: 'f', arguments: { a: '1' } },
      { name: 'f', arguments: { a: '2' } },
    ]);
    expect(result.errors).toEqual([
      `Couldn't read a tool call: bytes and f-strings are not allowed in "g(x=b'z')".`,
      'Unknown tool "nope". Available now: f, g.',
    ]);
  });

  it('refuses a call whose lenient read ended a string too soon, rather than run it with its argument cut short', () => {
    // A quote inside the command closes the string in Python; the lenient guess that ends it at the
    // next quote before a ')' leaves '))"' unread: the command it would run is cut in the middle.
    const nested = String.raw`[f(a='python3 -c "print(latex(x, mul_symbol='\,'))"')]`;
    const result = errorsOf(nested);
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^Couldn't read a tool call: expected ',' or '\)' in "f\(a='python3/);
    // A good sibling after it still runs.
    expect(errorsOf(`${nested.slice(0, -1)}, g(x=1)]`).calls).toEqual([{ name: 'g', arguments: { x: 1 } }]);
    // A lenient read followed by the next call on its own line, no comma between, stands.
    expect(errorsOf("[f(a='don't stop')\ng(x=2)]").calls).toEqual([
      { name: 'f', arguments: { a: "don't stop" } },
      { name: 'g', arguments: { x: 2 } },
    ]);
  });

  it('keeps the arguments read so far when the reply ends inside a call, dropping the one cut off', () => {
    expect(parseToolCalls("<|tool_call_start|>[f(a=1, b='hal", new Set(['f'])).calls).toEqual([
      { name: 'f', arguments: { a: 1 } },
    ]);
    expect(parseToolCalls('<|tool_call_start|>[f(a=', new Set(['f'])).calls).toEqual([{ name: 'f', arguments: {} }]);
  });

  it('reports a call cut off before its arguments, rather than guessing', () => {
    expect(parseToolCalls('<|tool_call_start|>[f', new Set(['f', 'ff']))).toEqual({
      text: '',
      calls: [],
      errors: [`Couldn't read a tool call: it ends before the arguments in "f".`],
    });
  });
});

describe('tool names in pythonic calls', () => {
  it('reads every name WebMCP allows: dots, dashes, and parts that start with a digit', () => {
    const names = new Set(['shop.cart-add', 'v2-track.order_status', 'maps.2d-view']);
    const result = parseToolCalls('<|tool_call_start|>[shop.cart-add(sku="MUG-1"), v2-track.order_status(id=7), maps.2d-view()]<|tool_call_end|>', names);
    expect(result.errors).toEqual([]);
    expect(result.calls.map((call) => [call.name, call.arguments])).toEqual([
      ['shop.cart-add', { sku: 'MUG-1' }],
      ['v2-track.order_status', { id: 7 }],
      ['maps.2d-view', {}],
    ]);
  });

  it('reads a name that starts with a digit, numbers among its arguments read as numbers still', () => {
    const names = new Set(['2fa_verify', '404_report', '3d-print.start', '123']);
    const result = parseToolCalls(
      '<|tool_call_start|>[2fa_verify(code="123456"), 404_report(page=404, ratio=0.5, ids=[1, -2]), 3d-print.start(copies=2), 123(n=1e3)]<|tool_call_end|>',
      names,
    );
    expect(result.errors).toEqual([]);
    expect(result.calls.map((call) => [call.name, call.arguments])).toEqual([
      ['2fa_verify', { code: '123456' }],
      ['404_report', { page: 404, ratio: 0.5, ids: [1, -2] }],
      ['3d-print.start', { copies: 2 }],
      ['123', { n: 1000 }],
    ]);
  });

  it('still reads a list of numbers, or prose that starts with one, in a call tag as no call', () => {
    for (const region of ['[1, 2, 3]', '2024 was a good year', '[3.5, "x"]']) {
      expect(parseToolCalls(`<|tool_call_start|>${region}<|tool_call_end|>`, new Set(['f'])).errors).toEqual([
        `Couldn't read a tool call: it is neither JSON nor name(argument=value) in "${region}".`,
      ]);
    }
    // A number alone reads as a name without its arguments, as a bare word does.
    expect(parseToolCalls('<|tool_call_start|>42<|tool_call_end|>', new Set(['f'])).errors).toEqual(['Unknown tool "42". Available now: f.']);
    expect(parseToolCalls('<|tool_call_start|>find<|tool_call_end|>', new Set(['f'])).errors).toEqual(['Unknown tool "find". Available now: f.']);
  });
});
