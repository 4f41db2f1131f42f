import { describe, expect, it } from 'vitest';
import { lexMarkdownBlocks } from '@/lib/sidepanel/lex-markdown-blocks';

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
});
