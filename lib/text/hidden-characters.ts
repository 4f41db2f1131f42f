// The characters a person does not see in a text, for the panels that mark them and for what the
// model is given to read.

// Controls other than tabs and line breaks, and the marks that set or override the direction of
// what follows: a page's result may use them to make its words read as others ("‮evil" as "live").
// Characters that show nothing at all, where a model's argument or a page's result could hide words
// from the person who reads it ("1\u200b00"; the tag characters, which spell ASCII unseen; the
// variation selectors): zero-width space, joiners, word joiner and the invisible operators, the
// byte-order mark, the combining grapheme joiner, the Mongolian vowel separator and variation
// selectors, the deprecated format characters, the Hangul fillers, Khmer's invisible vowels, the
// musical formatting marks, the specials' unassigned codes. A flag's tags, matched first, stay whole.
export const hiddenCharacter =
  /\u{1F3F4}(?:\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073}))\u{E007F}|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}]/gu;

/**
 * Whether an invisible character at `at` makes what is seen there, and stays unmarked: a flag of
 * Britain's nations (its tags spell the region), a joiner inside an emoji sequence, a non-joiner
 * between letters of a script that uses it (Persian, the Indic scripts), a variation selector
 * after a character it varies (an emoji, a symbol, a CJK ideograph), a Mongolian one after a
 * Mongolian letter. Anywhere else it makes nothing, and may carry what a person should see.
 */
export function drawsHere(text: string, at: number, match: string): boolean {
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

/** The characters that can spell text unseen: the tag characters and the other codes of plane 14. */
const planeFourteen = /[\u{E0000}-\u{E0FFF}]/u;

/**
 * The text without the characters of plane 14 that draw nothing (a flag of Britain's nations keeps
 * its tags, a CJK ideograph its variation selector): tag characters spell ASCII a person never
 * sees but a model may read ("ASCII smuggling"), and the variation selectors can carry bytes the
 * same way. What the model reads of a page is then what the person sees marked. The same text
 * where there is none, at the cost of one test.
 */
export function withoutUnseenText(text: string): string {
  if (!planeFourteen.test(text)) return text;
  return text.replace(hiddenCharacter, (match, at: number) => (match.codePointAt(0)! < 0xe0000 || drawsHere(text, at, match) ? match : ''));
}

/** Whether the text holds a character that draws nothing where it stands (an emoji's joiner, a flag's tags do). */
export function holdsUnseenCharacters(text: string): boolean {
  for (const match of text.matchAll(hiddenCharacter)) {
    if (!drawsHere(text, match.index, match[0])) return true;
  }
  return false;
}

/**
 * The text with each character that draws nothing where it stands written as its code ("⟨U+202E⟩"),
 * for a place that shows plain text only (a list's option), where no mark can be drawn: there a
 * direction override would turn the words after it around.
 */
export function withCodesShown(text: string): string {
  return text.replace(hiddenCharacter, (match, at: number) => (drawsHere(text, at, match) ? match : `⟨${characterCode(match)}⟩`));
}

/**
 * JSON text with each character that draws nothing where it stands written as its escape ("\\u202e"):
 * the same JSON once parsed, but what an editor or a chat it is pasted into shows is what it holds.
 * (Outside its strings JSON has no such character.)
 */
export function withUnseenEscaped(json: string): string {
  const escape = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;
  // A character past the first plane (a tag) is escaped as JSON writes it: its two halves.
  return json.replace(hiddenCharacter, (match, at: number) => (drawsHere(json, at, match) ? match : Array.from({ length: match.length }, (_, index) => escape(match.charCodeAt(index))).join('')));
}

/** A character's code as the panels show it: "U+202E". */
export function characterCode(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
