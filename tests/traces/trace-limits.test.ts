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

  it('says how many characters it left out', () => {
    const kept = capText('x'.repeat(5_000), 1_000);
    expect(kept.length).toBeLessThanOrEqual(1_000);
    expect(kept).toBe(`${'x'.repeat(970)} … (cut: 4030 more characters)`);
  });

  it('nor in half a flag or a family of emoji', () => {
    for (const start of ['', 'a', 'ab', 'abc']) {
      for (const emoji of ['🇯🇵', '👨‍👩‍👧']) {
        const kept = capText(`${start}${emoji.repeat(500)}`, 1_000).replace(/ … \(cut: \d+ more characters\)$/, '');
        expect(kept.slice(start.length).split(emoji).join(''), `${start} ${emoji}`).toBe('');
      }
    }
  });
});
