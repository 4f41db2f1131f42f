import { describe, expect, it } from 'vitest';
import { toolOutputFromResult, toolRunFromResult } from '@/lib/registry/tool-output-from-result';

describe('toolOutputFromResult: a page’s result as text for the model', () => {
  it('joins the text of an MCP-style result', () => {
    const result = JSON.stringify({ content: [{ type: 'text', text: 'Added 2 mugs.' }, { type: 'text', text: 'Total: 12 €.' }] });
    expect(toolOutputFromResult('add_to_cart', result)).toEqual({ text: 'Added 2 mugs.\nTotal: 12 €.' });
  });

  it('names an image or a sound with its type and size instead of giving its base64, and reads resources and links', () => {
    const png = 'iVBORw0KGgo'.padEnd(16_000, 'A');
    const result = JSON.stringify({
      content: [
        { type: 'text', text: 'The radar now:' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'text', text: 'Your order:' },
        { type: 'resource', resource: { uri: 'order://42', mimeType: 'text/plain', text: '2 mugs, 1 cap' } },
        { type: 'resource', resource: { uri: 'file://receipt.pdf', blob: 'JVBERi0x', mimeType: 'application/pdf' } },
        { type: 'resource_link', uri: 'https://shop.example/orders/42', name: 'Order 42' },
      ],
    });
    expect(toolOutputFromResult('radar', result).text).toBe(
      [
        'The radar now:',
        '[image image/png, 12 kB, not shown]',
        '[audio audio/wav, 1 kB, not shown]',
        'Your order:',
        'order://42:\n2 mugs, 1 cap',
        '[resource file://receipt.pdf, 1 kB, not shown]',
        '[link: Order 42 https://shop.example/orders/42]',
      ].join('\n'),
    );
  });

  it('gives the structured content as JSON when no item has text', () => {
    const result = JSON.stringify({ content: [], structuredContent: { temperature: 21, unit: 'C' } });
    expect(toolOutputFromResult('weather', result)).toEqual({ text: '{"temperature":21,"unit":"C"}' });
  });

  it('keeps structuredContent beside the output for the inspector, and the model reads the same text as without it', () => {
    const structuredContent = { temperature: 21, unit: 'C' };
    const content = [{ type: 'text', text: 'Sunny, 21 °C.' }];
    expect(toolRunFromResult('weather', JSON.stringify({ content, structuredContent }))).toEqual({ output: { text: 'Sunny, 21 °C.' }, structuredContent });
    expect(toolOutputFromResult('weather', JSON.stringify({ content, structuredContent }))).toEqual(toolOutputFromResult('weather', JSON.stringify({ content })));
    expect(toolRunFromResult('weather', JSON.stringify({ content }))).toEqual({ output: { text: 'Sunny, 21 °C.' } });
    expect(toolRunFromResult('search', '{"products":["mug"]}')).toEqual({ output: { text: '{"products":["mug"]}' } });
  });

  it('keeps an MCP-style isError', () => {
    const result = JSON.stringify({ content: [{ type: 'text', text: 'Out of stock.' }], isError: true });
    expect(toolOutputFromResult('add_to_cart', result)).toEqual({ text: 'Out of stock.', isError: true });
  });

  it('gives any other string as the page gave it', () => {
    expect(toolOutputFromResult('search', '{"products":["mug"]}')).toEqual({ text: '{"products":["mug"]}' });
    expect(toolOutputFromResult('hello', 'hello')).toEqual({ text: 'hello' });
    expect(toolOutputFromResult('odd', '{"content":[{"type":"video"}]}')).toEqual({ text: '{"content":[{"type":"video"}]}' });
    expect(toolOutputFromResult('broken', '{"content": [')).toEqual({ text: '{"content": [' });
  });

  it('says the page navigated or reloaded, blaming no one, when the call gave no result because its document went', () => {
    expect(toolOutputFromResult('checkout', null)).toEqual({
      text: 'The page navigated or reloaded while the tool "checkout" ran, so no result came back. The tool may have done it (a form that posts does).',
      noAnswer: true,
    });
  });
});
