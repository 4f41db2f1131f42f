import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutToTokens, estimateTokens } from '@webmcp-agents/local-agent';

// Cases: 10^4 by default; `npm run fuzz` asks for 10^6 (about 30 s), and the time limit grows with them.
const runs = Math.min(Number(process.env['FUZZ_RUNS']) || 10_000, 1_000_000);
const timeout = 10_000 + runs / 4;

// Text made of the pieces the estimate tells apart, so that every boundary between them is met.
const text = fc
  .array(fc.constantFrom('a', 'bc', 'Word', 'HTML', 'x'.repeat(9), '7', '42', ' ', '  ', '\n', '\n    ', '\t', '":"', '{', ',', '…', '价', '😀', '\ud83d', 'é'), { maxLength: 60 })
  .map((parts) => parts.join(''));

describe('cutToTokens', () => {
  it('keeps a start of the text that the estimate counts within the tokens, and all of it when it fits', { timeout }, () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 200 })), fc.integer({ min: -5, max: 120 }), (whole, tokens) => {
        const cut = cutToTokens(whole, tokens);
        expect(whole.startsWith(cut)).toBe(true);
        expect(estimateTokens(cut)).toBeLessThanOrEqual(Math.max(0, tokens));
        if (estimateTokens(whole) <= tokens) expect(cut).toBe(whole);
        else if (whole.isWellFormed()) {
          // Longest, or as good as: the text up to its next character that is not white space (the
          // whole of it, if written as two units) fills the tokens (a capital that joins a run of
          // capitals may still fit).
          const rest = whole.slice(cut.length);
          let end = cut.length + (rest.length - rest.trimStart().length) + 1;
          if (/[\ud800-\udbff]/.test(whole.charAt(end - 1))) end += 1;
          expect(estimateTokens(whole.slice(0, end))).toBeGreaterThanOrEqual(tokens);
        }
      }),
      { numRuns: runs },
    );
  });
});
