import { describe, expect, it } from 'vitest';
import { cutToTokens, estimateTokens } from '../../lib/local-agent/estimate-tokens';
import { qwenTokens } from '../../bench/qwen-tokens';

describe('estimateTokens', () => {
  it('counts a word a token for its first five letters and one for every four after, with the space before it', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('add to cart')).toBe(3);
    expect(estimateTokens('Add the blue mug')).toBe(4);
    expect(estimateTokens('internationalization')).toBe(5);
    expect(estimateTokens('Datenschutzbestimmungen')).toBe(6);
    expect(estimateTokens('getUserName')).toBe(3);
  });

  it('counts the words of JSON Schema, which fill every tool list, as one token', () => {
    expect(estimateTokens('description')).toBe(1);
    expect(estimateTokens('{"type":"object","properties":{}}')).toBe(estimateTokens('{"type":"a","b":{}}'));
  });

  it('counts every digit as a token, as Qwen3 reads numbers', () => {
    expect(estimateTokens('2026')).toBe(4);
    expect(estimateTokens('{"price":12.99}')).toBe(9);
    expect(estimateTokens('pay 12.99')).toBe(7);
  });

  it('counts runs of capitals and of punctuation more densely than words, a rule of one character less so', () => {
    expect(estimateTokens('MUG')).toBe(2);
    expect(estimateTokens('HTMLParser')).toBe(4);
    expect(estimateTokens('{"sku":"MUG-1"}')).toBe(8);
    expect(estimateTokens('-'.repeat(40))).toBe(4);
  });

  it('counts each line break (an empty line a quarter) and the indent of each line, whatever white space writes them', () => {
    expect(estimateTokens('a\nb')).toBe(3);
    expect(estimateTokens('a\r\nb')).toBe(3);
    expect(estimateTokens('a\n\n\n\n\n\nb')).toBe(5);
    expect(estimateTokens('[\n  1\n]')).toBe(7);
    expect(estimateTokens('{\n    "a": 1\n}')).toBe(11);
    expect(estimateTokens('\f\f\f')).toBe(3);
    expect(estimateTokens('\t'.repeat(40))).toBe(4);
    expect(estimateTokens(' \t'.repeat(10))).toBe(10);
  });

  it('counts a character of a script small models know well as a token, of others two or three', () => {
    expect(estimateTokens('加入购物车')).toBe(5);
    expect(estimateTokens('Привет, мир')).toBe(11);
    expect(estimateTokens('שלום')).toBe(4);
    expect(estimateTokens('Ձեր')).toBe(6);
    expect(estimateTokens('ትዕዛዝ')).toBe(12);
    expect(estimateTokens('😀')).toBe(3);
  });

  it('never counts fewer tokens than Qwen3 spends on what pages return: prose, tables of numbers, ids, page text', () => {
    const texts = [
      'Your order of two blue mugs will arrive on Tuesday between nine and noon. Thank you for shopping with us.',
      JSON.stringify(Array.from({ length: 20 }, (_, day) => ({ date: `2026-11-${String(day + 1).padStart(2, '0')}`, close: 181.32 + day * 1.07, volume: 51_234_000 + day * 8_191 }))),
      JSON.stringify([{ lat: 39.904211, lon: 116.407395 }, { lat: 31.230416, lon: 121.473701 }], null, 2),
      JSON.stringify({ orderId: '5f0c1a1e-9b7d-4c3e-8a2f-1d6e7c9b0a3f', sha: 'e83c5163316f89bfbde7d9ab23ca2e25604af290' }),
      '\n      \n        Blue mug\n        \n          12.99 EUR\n        \n      '.repeat(5),
      '商品已加入购物车，共计三件。',
      'உங்கள் ஆர்டர் செவ்வாய்க்கிழமை வந்து சேரும்.',
    ];
    for (const text of texts) expect(estimateTokens(text)).toBeGreaterThanOrEqual(qwenTokens(text).length);
  });

  it('counts prose of other Latin-script languages at no less than nine tenths of what Qwen3 reads', () => {
    const texts = [
      'Ihre Rücksendung wurde erfolgreich registriert. Die Gutschrift erfolgt innerhalb von vierzehn Werktagen.',
      "Votre commande de deux tasses bleues arrivera mardi entre neuf heures et midi. Merci d'avoir fait vos achats chez nous.",
      'Zamówienie zostanie dostarczone we wtorek między dziewiątą a dwunastą.',
    ];
    for (const text of texts) expect(estimateTokens(text)).toBeGreaterThanOrEqual(0.9 * qwenTokens(text).length);
  });
});

describe('cutToTokens', () => {
  it('keeps the longest start that the estimate counts within the tokens', () => {
    expect(cutToTokens('add to cart', 2)).toBe('add to');
    expect(cutToTokens('add to cart', 3)).toBe('add to cart');
    expect(cutToTokens('加入购物车', 3)).toBe('加入购');
    expect(cutToTokens('abc', 0)).toBe('');
    expect(cutToTokens('order 12345', 4)).toBe('order 12');
    expect(cutToTokens('x'.repeat(50), 3)).toBe('x'.repeat(13));
    expect(cutToTokens('-'.repeat(40), 2)).toBe('-'.repeat(16));
    for (const text of ['mixed 文字 and text', 'x'.repeat(50), '价格'.repeat(20), 'Total: 1,234.56 EUR\n  - MUG-1 x2', '[\n    1,\n    2\n]', '=-'.repeat(9) + '='.repeat(30)]) {
      for (let tokens = 0; tokens < 25; tokens += 1) expect(estimateTokens(cutToTokens(text, tokens))).toBeLessThanOrEqual(tokens);
    }
  });

  it('drops the spaces a cut would leave at the end', () => {
    expect(cutToTokens('ok  123', 2)).toBe('ok');
  });

  it('never leaves half of a character written as two UTF-16 units', () => {
    expect(cutToTokens('ok 😀😀', 3)).toBe('ok');
    expect(cutToTokens('ok 😀😀', 5)).toBe('ok 😀');
    expect(cutToTokens('😀😀', 3)).toBe('😀');
  });
});
