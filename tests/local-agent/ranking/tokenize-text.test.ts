import { describe, expect, it } from 'vitest';
import { tokenizeText } from '../../../lib/local-agent/ranking/tokenize-text';

describe('tokenizeText', () => {
  it('lower-cases, splits identifiers, drops stop words and numbers, stems', () => {
    expect(tokenizeText('Could you find the getHotelBookings for 3 guests?')).toEqual([
      'find',
      'get',
      'hotel',
      'book',
      'guest',
    ]);
  });

  it('keeps stop words and numbers when asked, and can skip stemming', () => {
    expect(
      tokenizeText('the 2 Books', { dropStopWords: false, keepNumbers: true, stem: false }),
    ).toEqual(['the', '2', 'books']);
  });

  it('writes Chinese text as overlapping character pairs', () => {
    expect(tokenizeText('搜索关键词')).toEqual(['搜索', '索关', '关键', '键词']);
    expect(tokenizeText('查 news')).toEqual(['查', 'new']);
  });

  it('gives nothing for an empty or stop-word-only text', () => {
    expect(tokenizeText('')).toEqual([]);
    expect(tokenizeText('could you please do it for me')).toEqual([]);
  });
});
