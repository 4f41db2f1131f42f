import { describe, expect, it } from 'vitest';
import { measurePiece } from '../../lib/local-agent/measure-piece';

describe('measurePiece', () => {
  it('ends a run of capitals at the capital that begins a word', () => {
    expect(measurePiece('HTTPServer', 0)).toEqual({ next: 4, cost: 2, firstChars: 2, perToken: 2 });
    expect(measurePiece('HTTPServer', 4)).toEqual({ next: 10, cost: 2, firstChars: 5, perToken: 4 });
  });

  it('reads letters right after a digit as short tokens, and each digit alone', () => {
    expect(measurePiece('9abcd', 0)).toEqual({ next: 1, cost: 1, firstChars: 0, perToken: 0 });
    expect(measurePiece('9abcd', 1)).toEqual({ next: 5, cost: 2, firstChars: 2, perToken: 2 });
  });

  it('counts a run of one repeated punctuation character cheaper than a mixed one', () => {
    expect(measurePiece('--------', 0)).toEqual({ next: 8, cost: 2, firstChars: 0, perToken: 16 });
    expect(measurePiece('-=-=-=', 0)).toEqual({ next: 6, cost: 2, firstChars: 3, perToken: 3 });
  });

  it('takes a run of white space whole, and a character outside ASCII alone', () => {
    expect(measurePiece('a \n\n  b', 1)).toEqual({ next: 6, cost: 4, firstChars: 0, perToken: 0 });
    expect(measurePiece('ሀሀ', 0)).toEqual({ next: 1, cost: 3, firstChars: 0, perToken: 0 });
  });
});
