/**
 * ASCII spelled in Unicode tag characters (U+E0000 plus each letter's code): it shows as nothing,
 * and a model that knows the block may read it ("ASCII smuggling").
 */
export function inTagCharacters(text: string): string {
  return [...text].map((character) => String.fromCodePoint(0xe0000 + character.codePointAt(0)!)).join('');
}
