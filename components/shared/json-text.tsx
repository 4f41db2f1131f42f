import type { ComponentChildren } from 'preact';

// A string of a right-to-left script: Hebrew, Arabic and the scripts near them, and their presentation forms.
const rightToLeft = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const stringLiteral = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * JSON (or any text) laid out as written, where each quoted string of a right-to-left script is
 * isolated in its own direction: a line of JSON reads left to right, and without this an Arabic
 * value with a Latin word in it ("كوب iPhone أحمر") shows its words in the wrong order. The text
 * itself is unchanged: a copy of it has no marks added.
 */
export function JsonText({ text }: { text: string }): ComponentChildren {
  if (!rightToLeft.test(text)) return text;
  const parts: ComponentChildren[] = [];
  let plain = 0;
  for (const match of text.matchAll(stringLiteral)) {
    if (!rightToLeft.test(match[0])) continue;
    parts.push(text.slice(plain, match.index), <bdi key={match.index}>{match[0]}</bdi>);
    plain = match.index + match[0].length;
  }
  parts.push(text.slice(plain));
  return parts;
}

/**
 * Whether a text reads as JSON (an object or a list): such a block stays left to right, its
 * right-to-left strings isolated by `JsonText`, where prose takes each line's own direction.
 */
export function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text);
}
