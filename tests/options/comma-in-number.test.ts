import { describe, expect, it } from 'vitest';
import { commaAction } from '@/components/shared/comma-in-number';

// Chrome's number field would drop the comma: "0,7" read as 7, "1,5" as 15.
describe('a comma typed or pasted into a number field', () => {
  it('is a decimal point in a field that takes decimals', () => {
    expect(commaAction(',', true)).toEqual({ insert: '.' });
    expect(commaAction('0,7', true)).toEqual({ insert: '0.7' });
  });

  it('is refused in a field of whole numbers, saying why', () => {
    expect(commaAction(',', false)).toEqual({ refused: 'Whole numbers only, without a comma.' });
    expect(commaAction('1,5', false)).toEqual({ refused: 'Whole numbers only, without a comma.' });
  });

  it('leaves a number grouped in thousands as written, without its commas, in either field', () => {
    for (const decimals of [true, false]) {
      expect(commaAction('10,000', decimals)).toEqual({ insert: '10000' });
      expect(commaAction(' 1,234,567 ', decimals)).toEqual({ insert: '1234567' });
    }
    expect(commaAction('1,000.5', true)).toEqual({ insert: '1000.5' });
  });

  it('refuses a number that mixes a decimal comma and point, and leaves input without a comma to the browser', () => {
    expect(commaAction('1.5,2', true)).toEqual({ refused: 'Not a number: a point or a comma, not both.' });
    expect(commaAction('12', true)).toBeUndefined();
    expect(commaAction('0.7', false)).toBeUndefined();
  });
});
