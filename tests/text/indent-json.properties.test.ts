import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentJson } from '@/lib/text/indent-json';

// Capped: a case is a whole JSON document, about 1.5 ms on a slow machine.
const runs = Math.min(Number(process.env['FUZZ_RUNS']) || 2_000, 200_000);

describe('indentJson', () => {
  it('lays out any JSON object or array as JSON.stringify(value, null, 2) does', () => {
    const objectOrArray = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));
    fc.assert(
      fc.property(objectOrArray, fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        expect(indentJson(text, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: runs },
    );
  }, 10_000 + runs * 2);

  it('keeps numbers and escapes as written, and gives nothing for other text or past its limit', () => {
    expect(indentJson('{"id":12345678901234567890,"note":"\\u00e9"}', 1_000)).toBe('{\n  "id": 12345678901234567890,\n  "note": "\\u00e9"\n}');
    for (const text of ['Added 2 mugs.', '{not json', '"a string"', '42', '']) expect(indentJson(text, 1_000)).toBeUndefined();
    const deep = `${'['.repeat(500)}${']'.repeat(500)}`;
    expect(indentJson(deep, 10_000)).toBeUndefined();
  });
});
