import { describe, expect, it, vi } from 'vitest';
import { lexMarkdownBlocks, type MarkdownBlocks } from '@/lib/sidepanel/lex-markdown-blocks';
import { lexMarkdown } from '@/lib/sidepanel/render-markdown';

// Spied, not replaced: the test counts the characters lexed.
vi.mock('@/lib/sidepanel/render-markdown', { spy: true });

const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index}.\n\n`).join('');

describe('lexMarkdownBlocks', () => {
  it('keeps settled blocks and lexes only the tail of a growing text', () => {
    const first = lexMarkdownBlocks(paragraphs(10));
    const second = lexMarkdownBlocks(`${paragraphs(10)}More`, first);
    expect(second.tokens[0]).toBe(first.tokens[0]);
    expect(second.tokens.map((token) => token.raw).join('')).toBe(`${paragraphs(10)}More`);
    expect(second.tokens.map((token) => token.raw)).toEqual(lexMarkdownBlocks(`${paragraphs(10)}More`).tokens.map((token) => token.raw));
  });

  it('lexes afresh when the text does not continue the previous one', () => {
    const first = lexMarkdownBlocks(paragraphs(10));
    const other = lexMarkdownBlocks('Something else entirely.\n\nAnd more.', first);
    expect(other.tokens.map((token) => token.raw).join('')).toBe('Something else entirely.\n\nAnd more.');
  });

  it('counts a CR LF text by its normalised length', () => {
    const blocks = lexMarkdownBlocks('One.\r\n\r\nTwo.\r\n\r\nThree.\r\n\r\nFour.\r\n\r\nFive.');
    expect(blocks.text).toBe('One.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.');
    expect(blocks.settledLength).toBe(blocks.tokens.slice(0, blocks.settledCount).reduce((sum, token) => sum + token.raw.length, 0));
  });

  it('marks blocks lexed with reference definitions', () => {
    const blocks = lexMarkdownBlocks('See [shop].\n\n[shop]: https://shop.example/');
    expect(blocks.linksKeys[0]).toContain('https://shop.example/');
  });

  it('never takes a reference definition by its half written so far', () => {
    const text = 'See [the shop].\n\nFirst.\n\nSecond.\n\nThird.\n\n[the shop]: https://shop.example/cart\n\nFourth.\n\nFifth.\n\nSixth.\n\nAnd [the shop] again.\n';
    let blocks: MarkdownBlocks | undefined;
    for (let end = 1; end <= text.length; end += 1) blocks = lexMarkdownBlocks(text.slice(0, end), blocks);
    expect(blocks!.links['the shop']?.href).toBe('https://shop.example/cart');
    const last = blocks!.tokens.findLast((token) => token.type === 'paragraph') as { tokens: Array<{ type: string; href?: string }> };
    expect(last.tokens.find((token) => token.type === 'link')?.href).toBe('https://shop.example/cart');
  });

  it('lexes only the new end of a reply that is one long list or table, not the whole block', () => {
    const items = Array.from({ length: 2_000 }, (_, index) => `${index + 1}. Item ${index + 1} with **bold** text\n`).join('');
    const rows = Array.from({ length: 2_000 }, (_, index) => `| ${index + 1} | Widget ${index + 1} | ${index + 1}.99 |\n`).join('');
    for (const text of [items, `| # | name | price |\n|---|---|---:|\n${rows}`]) {
      vi.mocked(lexMarkdown).mockClear();
      let blocks: MarkdownBlocks | undefined;
      for (let end = 500; end < text.length + 500; end += 500) blocks = lexMarkdownBlocks(text.slice(0, end), blocks);
      const lexed = vi.mocked(lexMarkdown).mock.calls.reduce((sum, [part]) => sum + part.length, 0);
      // Lexing the whole block at each of its 130 updates would lex it 65 times over.
      expect(lexed).toBeLessThan(3 * text.length);
      expect(blocks!.tokens.map((token) => token.raw)).toEqual(lexMarkdownBlocks(text).tokens.map((token) => token.raw));
    }
  });
});
