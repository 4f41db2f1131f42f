import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../lib/local-agent/parse-tool-calls';

// Shapes the documentation does not promise, read only when every call names an offered tool:
// otherwise the reply stays prose and nothing is reported.

const names = new Set(['search', 'open_cart']);
const searchA = { name: 'search', arguments: { query: 'a' } };
const body = '{"name": "search", "arguments": {"query": "a"}}';
const unknownBody = '{"name": "delete_all", "arguments": {}}';

describe('near misses read when every call is offered', () => {
  it.each([
    ['a JSON call wrapped in a stray tag', `<tool>\n${body}\n</tool>`],
    ['a JSON call wrapped in <function>', `<function>${body}</function>`],
    ['a fence in another language', `\`\`\`xml\n${body}\n\`\`\``],
    ['a tag inside a ```json fence', `\`\`\`json\n<function_call> ${body} </function_call>\n\`\`\``],
    ['Mistral markers', `[TOOL_CALLS] [${body}][/TOOL_CALLS]`],
    ['Llama 3.1 function tags', '<function=search>{"query": "a"}</function>'],
    ['a bare pythonic list', '[search(query="a")]'],
    ['a pythonic list whose start tag was lost', '[search(query="a")]<|tool_call_end|>'],
    ['an extra closing bracket', `[${body}]]`],
  ])('%s', (_, reply) => {
    expect(parseToolCalls(reply, names)).toEqual({ text: '', calls: [searchA], errors: [] });
  });

  it('reads Qwen3-coder parameters inside a call tag', () => {
    const reply = 'Looking.\n<tool_call>\n<function=search>\n<parameter=query>\na\n</parameter>\n</function>\n</tool_call>';
    expect(parseToolCalls(reply, names)).toEqual({ text: 'Looking.', calls: [searchA], errors: [] });
  });

  it('reads calls separated by semicolons as the documented array, errors included', () => {
    const result = parseToolCalls(`${unknownBody}; ${body}`, names);
    expect(result.calls).toEqual([searchA]);
    expect(result.errors).toEqual(['Unknown tool "delete_all". Available now: search, open_cart.']);
  });
});

describe('near misses naming a tool not offered stay prose', () => {
  it.each([
    `<tool>\n${unknownBody}\n</tool>`,
    `\`\`\`xml\n${unknownBody}\n\`\`\``,
    `[TOOL_CALLS] [${unknownBody}]`,
    '<function=delete_all>{}</function>',
    '[delete_all()]',
    '[search(query="a"), delete_all()]',
  ])('%s', (reply) => {
    expect(parseToolCalls(reply, names)).toEqual({ text: reply, calls: [], errors: [] });
  });
});
