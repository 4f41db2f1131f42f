import { describe, expect, it } from 'vitest';
import { capText } from '@/lib/traces/trace-limits';

const halfCharacter = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('a text a trace keeps cut to its limit', () => {
  it('never ends in half an emoji before its note', () => {
    for (const start of ['', 'a']) {
      const kept = capText(`${start}${'🎉'.repeat(1_000)}`, 1_000);
      expect(kept).toMatch(/ … \(cut: \d+ more characters\)$/);
      expect(kept, `after ${JSON.stringify(start)}`).not.toMatch(halfCharacter);
    }
  });
});
