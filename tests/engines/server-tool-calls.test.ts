import { describe, expect, it } from 'vitest';
import { createServerToolCalls } from '@/lib/engines/openai/server-tool-calls';

describe('a server’s tool_calls, as the text the model wrote', () => {
  it('joins each call’s streamed pieces under its index, in order, whoever comes first', () => {
    const calls = createServerToolCalls();
    calls.add([{ index: 1, function: { name: 'add_to_cart', arguments: '{"qty"' } }]);
    calls.add([{ index: 0, function: { name: 'open_', arguments: '' } }]);
    calls.add([{ index: 0, function: { name: 'product', arguments: '{"slug": "mug"}' } }, { index: 1, function: { arguments: ': 2}' } }]);
    expect(calls.text()).toBe(
      '<tool_call>\n{"name": "open_product", "arguments": {"slug":"mug"}}\n</tool_call>\n<tool_call>\n{"name": "add_to_cart", "arguments": {"qty":2}}\n</tool_call>',
    );
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
    expect(calls.add(undefined)).toBe(false);
    expect(calls.add({ function: { name: 'x' } })).toBe(false);
    calls.add([null, 'x', { function: { arguments: '{}' } }]);
    expect(calls.text()).toBe('');
  });
});
