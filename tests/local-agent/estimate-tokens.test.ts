import { describe, expect, it } from 'vitest';
import { cutToTokens, estimateTokens } from '../../lib/local-agent/estimate-tokens';

describe('estimateTokens', () => {
  it('counts three characters of ASCII a token and any other character as one', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('add to cart')).toBe(4);
    expect(estimateTokens('{"sku":"MUG-1"}')).toBe(5);
    expect(estimateTokens('加入购物车')).toBe(5);
    expect(estimateTokens('Привет, мир')).toBe(10);
  });
});

describe('cutToTokens', () => {
  it('keeps the longest start that the estimate counts within the tokens', () => {
    expect(cutToTokens('add to cart', 2)).toBe('add to');
    expect(cutToTokens('add to cart', 4)).toBe('add to cart');
    expect(cutToTokens('加入购物车', 3)).toBe('加入购');
    expect(cutToTokens('abc', 0)).toBe('');
    for (const text of ['mixed 文字 and text', 'x'.repeat(50), '价格'.repeat(20)]) {
      for (let tokens = 0; tokens < 25; tokens += 1) expect(estimateTokens(cutToTokens(text, tokens))).toBeLessThanOrEqual(tokens);
    }
  });

  it('never leaves half of a character written as two UTF-16 units', () => {
    expect(cutToTokens('ok 😀😀', 2)).toBe('ok ');
    expect(cutToTokens('😀😀', 2)).toBe('😀');
  });
});
