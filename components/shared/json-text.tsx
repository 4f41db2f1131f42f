import type { ComponentChildren } from 'preact';

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

// Controls other than tabs and line breaks, and the marks that set or override the direction of
// what follows: a page's result may use them to make its words read as others ("‮evil" as "live").
// Characters that show nothing at all, where a model's argument or a page's result could hide words
// from the person who reads it ("1\u200b00"; the tag characters, which spell ASCII unseen; the
// variation selectors): zero-width space, joiners, word joiner and the invisible operators, the
// byte-order mark, the combining grapheme joiner, the Mongolian vowel separator and variation
// selectors, the deprecated format characters, the Hangul fillers, Khmer's invisible vowels, the
// musical formatting marks, the specials' unassigned codes. A flag's tags, matched first, stay whole.
const hiddenCharacter =
  /\u{1F3F4}(?:\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073}))\u{E007F}|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}]/gu;

/**
 * Whether an invisible character at `at` makes what is seen there, and stays unmarked: a flag of
 * Britain's nations (its tags spell the region), a joiner inside an emoji sequence, a non-joiner
 * between letters of a script that uses it (Persian, the Indic scripts), a variation selector
 * after a character it varies (an emoji, a symbol, a CJK ideograph), a Mongolian one after a
 * Mongolian letter. Anywhere else it makes nothing, and may carry what a person should see.
 */
function drawsHere(text: string, at: number, match: string): boolean {
  if (match.length > 2) return true;
  const code = match.codePointAt(0)!;
  const before = at > 0 ? lastCodePoint(text.slice(0, at)) : undefined;
  const after = text.codePointAt(at + match.length);
  const is = (point: number | undefined, pattern: RegExp) => point !== undefined && pattern.test(String.fromCodePoint(point));
  if (code === 0x200d) return (is(before, /\p{Extended_Pictographic}/u) || before === 0xfe0f || (before !== undefined && before >= 0x1f3fb && before <= 0x1f3ff)) && is(after, /\p{Extended_Pictographic}/u);
  if (code === 0x200c) return is(before, /[^\P{L}\p{Script=Latin}]|\p{M}/u) && is(after, /[^\P{L}\p{Script=Latin}]/u);
  if (code >= 0xfe00 && code <= 0xfe0f) return is(before, /[\p{Extended_Pictographic}\p{So}\p{Sm}\p{Script=Han}\p{N}#*]/u);
  if (code >= 0xe0100 && code <= 0xe01ef) return is(before, /\p{Script=Han}/u);
  if (code >= 0x180b && code <= 0x180f && code !== 0x180e) return is(before, /\p{Script=Mongolian}/u);
  return false;
}

function lastCodePoint(text: string): number | undefined {
  const last = text.codePointAt(text.length - 1);
  // The low half of a pair: the point is the pair's.
  return last !== undefined && last >= 0xdc00 && last <= 0xdfff && text.length > 1 ? text.codePointAt(text.length - 2) : last;
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
  const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
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
