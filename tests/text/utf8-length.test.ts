import { describe, expect, it } from 'vitest';
import { jsonBytes, utf8Length } from '../../lib/text/utf8-length';

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('counts what UTF-8 encoding takes: ASCII one byte, Cyrillic two, Japanese three, an emoji four, a lone half of a pair three', () => {
    for (const text of ['', 'mug', 'кружка', 'マグカップ', '😀', 'a😀b', '\ud83d', 'x\ude00y', 'mixed マグ and 😀 кружка'])
      expect(utf8Length(text)).toBe(encoded(text));
  });

  it('counts a value as its JSON', () => {
    expect(jsonBytes({ name: 'マグ' })).toBe(encoded('{"name":"マグ"}'));
    expect(jsonBytes(undefined)).toBe(0);
  });
});
