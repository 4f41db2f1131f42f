import { describe, expect, it } from 'vitest';
import { textDirection } from '@/lib/text/text-direction';

describe('the direction a block of a reply reads in', () => {
  it('is right to left where most letters are Arabic or Hebrew, though a Latin name comes first', () => {
    expect(textDirection('- iPhone 15 Pro: بسعر 4999 ريال، متوفر الآن\n- Galaxy S24: بسعر 3899 ريال')).toBe('rtl');
    expect(textDirection('שלום, המוצר iPhone במלאי.')).toBe('rtl');
  });

  it('is left to right where most letters are Latin, and left to the browser where there are none', () => {
    expect(textDirection('The كوب mug is in stock, two of them.')).toBe('ltr');
    expect(textDirection('| 12 | 4.5 |')).toBe('auto');
  });
});
