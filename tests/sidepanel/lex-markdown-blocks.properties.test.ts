import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexMarkdownBlocks, type MarkdownBlocks } from '@/lib/sidepanel/lex-markdown-blocks';

// The property half of lex-markdown-blocks.test.ts: `npm run fuzz` runs it with more cases.
describe('lexMarkdownBlocks, at any point of a stream', () => {
  it('gives the blocks a fresh lex gives, at every point of a stream of lists and tables', () => {
    const line = fc.constantFrom(
      '- item', '- [ ] task', '* star', '+ plus', '1. first', '2. second', '10) paren', '   3. indented', '  - nested', '    code',
      '| a | b |', '|---|:-:|', '| 1 | 2 |', '| 3 |', 'a | b', 'lazy line', '', '> quote', '# Title', '---', '```', 'text [ref]', '[ref]: https://ref.example',
    );
    const text = fc.array(line, { minLength: 1, maxLength: 40 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (whole, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
        let blocks: MarkdownBlocks | undefined;
        for (const point of [...points, whole.length]) {
          const shown = whole.slice(0, point);
          blocks = lexMarkdownBlocks(shown, blocks);
          const fresh = lexMarkdownBlocks(shown);
          expect(blocks.tokens.map((token) => token.raw)).toEqual(fresh.tokens.map((token) => token.raw));
          // Blocks settled before a reference definition came read as they did without it: a
          // finished reply with definitions is lexed whole once (see ProseView).
          if (Object.keys(fresh.links).length > 0) continue;
          expect(JSON.stringify(blocks.tokens)).toBe(JSON.stringify(fresh.tokens));
          expect(blocks.linksKeys).toEqual(fresh.linksKeys);
        }
      }),
      { numRuns: Math.min(Number(process.env.FUZZ_RUNS) || 300, 20_000) },
    );
  });
});
