import { describe, expect, it } from 'vitest';
import { toolOutputFromResult } from '@/lib/registry/tool-output-from-result';

describe('toolOutputFromResult: a page’s result as text for the model', () => {
  it('joins the text of an MCP-style result', () => {
    const result = JSON.stringify({ content: [{ type: 'text', text: 'Added 2 mugs.' }, { type: 'image', data: 'x' }, { type: 'text', text: 'Total: 12 €.' }] });
    expect(toolOutputFromResult('add_to_cart', result)).toEqual({ text: 'Added 2 mugs.\nTotal: 12 €.' });
  });

  it('keeps an MCP-style isError', () => {
    const result = JSON.stringify({ content: [{ type: 'text', text: 'Out of stock.' }], isError: true });
    expect(toolOutputFromResult('add_to_cart', result)).toEqual({ text: 'Out of stock.', isError: true });
  });

  it('gives any other string as the page gave it', () => {
    expect(toolOutputFromResult('search', '{"products":["mug"]}')).toEqual({ text: '{"products":["mug"]}' });
    expect(toolOutputFromResult('hello', 'hello')).toEqual({ text: 'hello' });
    expect(toolOutputFromResult('odd', '{"content":[{"type":"image"}]}')).toEqual({ text: '{"content":[{"type":"image"}]}' });
    expect(toolOutputFromResult('broken', '{"content": [')).toEqual({ text: '{"content": [' });
  });

  it('says so when the call navigated the page', () => {
    expect(toolOutputFromResult('checkout', null)).toEqual({
      text: 'The tool "checkout" navigated the page to a new document; it gave no other result.',
    });
  });
});
