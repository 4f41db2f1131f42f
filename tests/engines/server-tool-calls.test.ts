import { describe, expect, it } from 'vitest';
import { createServerToolCalls } from '@/lib/engines/openai/server-tool-calls';

describe('a server’s tool_calls, as the text the model wrote', () => {
  it('joins each call’s streamed pieces under its index, in the order the calls began', () => {
    const calls = createServerToolCalls();
    calls.add([{ index: 0, id: 'call_0', function: { name: 'open_product', arguments: '' } }]);
    calls.add([{ index: 1, id: 'call_1', function: { name: 'add_to_cart', arguments: '{"qty"' } }]);
    calls.add([{ index: 0, function: { arguments: '{"slug": "mug"}' } }, { index: 1, function: { arguments: ': 2}' } }]);
    expect(calls.text()).toBe(
      '<tool_call>\n{"name": "open_product", "arguments": {"slug":"mug"}}\n</tool_call>\n<tool_call>\n{"name": "add_to_cart", "arguments": {"qty":2}}\n</tool_call>',
    );
  });

  it('keeps apart calls that share an index, as Ollama streams them all under index 0', () => {
    const calls = createServerToolCalls();
    calls.add([{ index: 0, id: 'call_a', function: { name: 'search', arguments: '{"q": "a"}' } }]);
    calls.add([{ index: 0, id: 'call_b', function: { name: 'search', arguments: '{"q": "b"}' } }]);
    // Without ids, a piece that names a tool begins the next call.
    calls.add([{ index: 0, function: { name: 'open', arguments: '{"n": ' } }]);
    calls.add([{ index: 0, function: { arguments: '1}' } }]);
    expect(calls.text()).toBe(
      [
        '<tool_call>\n{"name": "search", "arguments": {"q":"a"}}\n</tool_call>',
        '<tool_call>\n{"name": "search", "arguments": {"q":"b"}}\n</tool_call>',
        '<tool_call>\n{"name": "open", "arguments": {"n":1}}\n</tool_call>',
      ].join('\n'),
    );
  });

  it('joins the pieces of one call that repeat its name, and its id, on every piece, as older llama.cpp and llama-cpp-python stream them', () => {
    const calls = createServerToolCalls();
    calls.add([{ index: 0, id: 'call_1', function: { name: 'add_to_cart', arguments: '' } }]);
    calls.add([{ index: 0, id: 'call_1', function: { name: 'add_to_cart', arguments: '{"slug": "mug", ' } }]);
    calls.add([{ index: 0, id: 'call_1', function: { name: 'add_to_cart', arguments: '"qty": 2}' } }]);
    // Without ids, the name repeated before the arguments are whole goes on the same call.
    calls.add([{ index: 0, function: { name: 'search', arguments: '{"q": ' } }]);
    calls.add([{ index: 0, function: { name: 'search', arguments: '"mug"}' } }]);
    calls.add([{ index: 0, function: { name: 'search', arguments: '{"q": "cup"}' } }]);
    // A last piece that repeats the name with nothing more ends the call: no call of its own.
    calls.add([{ index: 0, function: { name: 'search', arguments: '' } }]);
    expect(calls.text()).toBe(
      [
        '<tool_call>\n{"name": "add_to_cart", "arguments": {"slug":"mug","qty":2}}\n</tool_call>',
        '<tool_call>\n{"name": "search", "arguments": {"q":"mug"}}\n</tool_call>',
        '<tool_call>\n{"name": "search", "arguments": {"q":"cup"}}\n</tool_call>',
      ].join('\n'),
    );
  });

  it('takes an empty name or id on a later piece as none: the piece goes on the call it belongs to', () => {
    const calls = createServerToolCalls();
    calls.add([{ index: 0, id: 'chatcmpl-tool-1', function: { name: 'add_to_cart', arguments: '' } }]);
    calls.add([{ index: 0, id: '', function: { name: '', arguments: '{"slug": ' } }]);
    calls.add([{ index: 0, function: { name: '', arguments: '"mug"}' } }]);
    expect(calls.text()).toBe('<tool_call>\n{"name": "add_to_cart", "arguments": {"slug":"mug"}}\n</tool_call>');
  });

  it('takes arguments sent as an object, none as {}, and keeps ones that are no JSON as a string the agent reports', () => {
    const calls = createServerToolCalls();
    calls.add([{ function: { name: 'a', arguments: { x: 1 } } }, { function: { name: 'b' } }, { function: { name: 'c', arguments: '{"x": ' } }]);
    expect(calls.text()).toBe(
      '<tool_call>\n{"name": "a", "arguments": {"x":1}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "c", "arguments": "{\\"x\\": "}\n</tool_call>',
    );
  });

  it('says nothing of what is no list of calls, or a call without a name', () => {
    const calls = createServerToolCalls();
    expect(calls.add(undefined)).toBe(0);
    expect(calls.add({ function: { name: 'x' } })).toBe(0);
    calls.add([null, 'x', { function: { arguments: '{}' } }]);
    expect(calls.text()).toBe('');
  });
});
