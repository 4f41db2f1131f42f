import type { ComponentChildren } from 'preact';
import { characterCode, drawsHere, hiddenCharacter } from '@/lib/text/hidden-characters';

// A string of a right-to-left script: Hebrew, Arabic and the scripts near them, and their presentation forms.
const rightToLeft = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const stringLiteral = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * JSON (or any text) laid out as written, where each quoted string of a right-to-left script is
 * isolated in its own direction: a line of JSON reads left to right, and without this an Arabic
 * value with a Latin word in it ("كوب iPhone أحمر") shows its words in the wrong order. A page's
 * characters that are not seen but change what is (see `HiddenCharacters`) are shown by their code.
 * The text itself is unchanged: a copy of it has no marks added.
 */
export function JsonText({ text }: { text: string }): ComponentChildren {
  if (!rightToLeft.test(text)) return <HiddenCharacters text={text} />;
  return markMatches(
    text,
    stringLiteral,
    (plain, at) => <HiddenCharacters key={`t${at}`} text={plain} />,
    (literal, at) =>
      rightToLeft.test(literal) ? (
        <bdi key={at}>
          <HiddenCharacters text={literal} />
        </bdi>
      ) : (
        <HiddenCharacters key={at} text={literal} />
      ),
  );
}

/**
 * A text with each such character in an isolate of its own, where it can change the direction of
 * nothing, shown by its code (`U+202E`, drawn by the stylesheet, so a copy keeps the text as it is).
 * For prose (a request pasted from elsewhere, a page's description of a tool) as for JSON.
 */
export function HiddenCharacters({ text }: { text: string }): ComponentChildren {
  return markMatches(
    text,
    hiddenCharacter,
    (plain) => plain,
    (match, at) => (drawsHere(text, at, match) ? match : <HiddenCharacter key={at} character={match} />),
  );
}

function HiddenCharacter({ character }: { character: string }) {
  const code = characterCode(character);
  return (
    <span class="hidden-character" data-code={code} title={`An invisible character, ${code}`}>
      {character}
    </span>
  );
}

/**
 * The text cut at each match of `pattern` (a global one): the stretches between as `plain` makes
 * them, each match as `marked` does; `at` is where each begins. A text without a match is one stretch.
 */
function markMatches(
  text: string,
  pattern: RegExp,
  plain: (stretch: string, at: number) => ComponentChildren,
  marked: (match: string, at: number) => ComponentChildren,
): ComponentChildren {
  const parts: ComponentChildren[] = [];
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > from) parts.push(plain(text.slice(from, match.index), from));
    parts.push(marked(match[0], match.index));
    from = match.index + match[0].length;
  }
  if (parts.length === 0) return plain(text, 0);
  if (from < text.length) parts.push(plain(text.slice(from), from));
  return parts;
}

/**
 * Whether a text reads as JSON (an object or a list): such a block stays left to right, its
 * right-to-left strings isolated by `JsonText`, where prose takes each line's own direction.
 */
export function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text);
}
