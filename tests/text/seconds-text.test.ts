import { describe, expect, it } from 'vitest';
import { secondsText } from '@/lib/text/seconds-text';

describe('secondsText', () => {
  it('says a short wait to a tenth of a second, and a long one in minutes and whole seconds', () => {
    expect([1_000, 12_500, 59_940].map(secondsText)).toEqual(['1 second', '12.5 seconds', '59.9 seconds']);
    expect([60_000, 61_000, 145_700, 3_600_000].map(secondsText)).toEqual(['1 minute', '1 minute 1 second', '2 minutes 26 seconds', '60 minutes']);
  });
});
