import { describe, expect, it } from 'vitest';
import {
  createProseFilter,
  parseToolCalls,
} from "@webmcp-agents/local-agent";
import type { ParsedCall, ParseResult } from "@webmcp-agents/local-agent";

// The examples of spec/parse-tool-calls.md, word for word, with what they print asserted.

describe('spec example: parseToolCalls', () => {
  it('repairs a call whose tag the model never closed', () => {
    const names = new Set(["open_product", "search_products"]);

    // The model stopped before it closed the tag: the call is repaired.
    const result = parseToolCalls(
      'Opening it.<tool_call>{"name": "open_product", ' +
        '"arguments": {"slug": "trail-cap"}}',
      names,
    );
    expect(result.text).toBe("Opening it."); // console.log(result.text); // "Opening it."
    const expected: ParsedCall[] = [{ name: 'open_product', arguments: { slug: 'trail-cap' } }];
    expect(result.calls).toEqual(expected); // console.log(result.calls); // [{ name: "open_product", arguments: {…} }]
    expect(result.errors).toEqual([]); // console.log(result.errors); // []
  });
});

describe('spec example: createProseFilter', () => {
  it('shows the prose and holds back the markup', () => {
    // The streaming half: show the prose, hold back the markup.
    const filter = createProseFilter();
    expect(filter.push("Sure <tool_")).toBe("Sure ");
    expect(filter.push('call>{"name":"open_cart"}</tool_call> done')).toBe(" done");
    expect(filter.flush()).toBe("");
  });
});

describe('spec: the shapes it accepts', () => {
  const names = new Set(['add_to_cart']);
  const call: ParsedCall = { name: 'add_to_cart', arguments: { qty: 2 } };

  it('reads Liquid LFM2 tags, pythonic or JSON', () => {
    expect(parseToolCalls('<|tool_call_start|>[add_to_cart(qty=2)]<|tool_call_end|>', names).calls).toEqual([call]);
    expect(
      parseToolCalls('<|tool_call_start|>[{"name": "add_to_cart", "arguments": {"qty": 2}}]<|tool_call_end|>', names)
        .calls,
    ).toEqual([call]);
  });

  it('reads Qwen / Hermes tags', () => {
    const result: ParseResult = parseToolCalls(
      '<tool_call>{"name": "add_to_cart", "arguments": {"qty": 2}}</tool_call>',
      names,
    );
    expect(result).toEqual({ text: '', calls: [call], errors: [] });
  });

  it('reads a fenced JSON block', () => {
    const fenced = '```json\n{"name": "add_to_cart", "arguments": {"qty": 2}}\n```';
    expect(parseToolCalls(fenced, names)).toEqual({ text: '', calls: [call], errors: [] });
    // On one line, as the spec's table writes it.
    const oneLine = '```json {"name": "add_to_cart", "arguments": {"qty": 2}} ```';
    expect(parseToolCalls(oneLine, names)).toEqual({ text: '', calls: [call], errors: [] });
  });

  it('reads the whole reply as JSON (Prompt API), a message envelope being prose', () => {
    const envelope = '{"type": "tool_call", "name": "add_to_cart", "arguments": {"qty": 2}}';
    expect(parseToolCalls(envelope, names)).toEqual({ text: '', calls: [call], errors: [] });
    const message = '{"type": "message", "text": "Your cart is empty."}';
    expect(parseToolCalls(message, names)).toEqual({ text: 'Your cart is empty.', calls: [], errors: [] });
  });
});

describe('spec: options and errors', () => {
  it('makes any name not offered an error, never a call', () => {
    const result = parseToolCalls('<tool_call>{"name": "x", "arguments": {}}</tool_call>', new Set(['a', 'b']));
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual(['Unknown tool "x". Available now: a, b.']);
  });

  it('reports arguments that are not an object', () => {
    const result = parseToolCalls('<tool_call>{"name": "x", "arguments": [1]}</tool_call>', new Set(['x']));
    expect(result.errors).toEqual(['Arguments for "x" must be a JSON object.']);
  });

  it('reports a call it cannot read', () => {
    const result = parseToolCalls('<tool_call>nah uhg</tool_call>', new Set(['x']));
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^Couldn't read a tool call: .+/);
  });

  it('reads only the first 32 KB', () => {
    const call = '<tool_call>{"name": "x", "arguments": {}}</tool_call>';
    const result = parseToolCalls('a'.repeat(32 * 1024) + call, new Set(['x']));
    expect(result.calls).toEqual([]);
  });
});
