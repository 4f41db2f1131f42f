import { describe, expect, it } from 'vitest';
import { blockDirection, replyDirection } from '@/lib/text/text-direction';

describe('the direction a reply reads in', () => {
  it('is right to left where a third of its letters or more are Arabic or Hebrew, though a Latin name comes first', () => {
    expect(replyDirection('iPhone 15 Pro: بسعر 4999 ريال')).toBe('rtl');
    expect(replyDirection('שלום, המוצר iPhone במלאי.')).toBe('rtl');
    expect(replyDirection('The كوب mug is in stock, two of them.')).toBe('ltr');
  });

  it('counts the letters a reader sees: not link addresses, nor digits and marks of an Arabic number', () => {
    expect(replyDirection('- [كوب أحمر](https://shop.example/products/red-enamel-mug)\n- [كوب أزرق](<https://shop.example/products/blue-enamel-mug>)')).toBe('rtl');
    expect(replyDirection('- كوب أحمر: https://shop.example/products/red-enamel-mug')).toBe('rtl');
    expect(replyDirection('Total: ٤٩٩٩ ﷼')).toBe('ltr');
    expect(replyDirection('هذه حالة الطلب:\n\n```json\n{"order_status": "shipped", "carrier": "express delivery"}\n```\n\n- iPhone 15 Pro Max: 4999 ريال')).toBe('rtl');
    // A block of code still being written, not closed yet.
    expect(replyDirection('هذه حالة الطلب:\n\n```json\n{"order_status": "shipped", "carrier": "express delivery"')).toBe('rtl');
    expect(replyDirection('| 12 | 4.5 |')).toBeUndefined();
  });
});

describe('the direction a block of a reply reads in', () => {
  it('is its own where most of its letters are of one direction', () => {
    expect(blockDirection('- iPhone 15 Pro: بسعر 4999 ريال، متوفر الآن\n- Galaxy S24: بسعر 3899 ريال')).toBe('rtl');
    expect(blockDirection('The كوب mug is in stock, two of them.')).toBe('ltr');
    // A long block reads in the direction of its start: a list of 5,000 items is not counted whole at each update.
    const arabicItems = '- كوب أحمر كبير\n'.repeat(300);
    expect(blockDirection(arabicItems + '- a red mug, large and heavy\n'.repeat(5_000))).toBe('rtl');
  });

  it("is the reply's where its letters are mixed, or it has none", () => {
    // Latin names with prices in riyals: Arabic in an Arabic reply, English in an English one.
    expect(blockDirection('- iPhone 15 Pro Max: 4999 ريال\n- Galaxy S24 Ultra: 3899 ريال')).toBeUndefined();
    expect(blockDirection('| 12 | 4.5 |')).toBeUndefined();
  });
});
