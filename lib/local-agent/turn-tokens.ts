// The chat-template tokens the own-turn cut reads (see createOwnTurn), and which one starts at a
// `<`. A new template's turn tokens, or a tool-result tag only the page may give, go here.
import { MARKERS, matchMarkerAt, type MarkerMatch } from './parsing/markup-markers';

/** Tokens that end a turn. Taken out; where a turn opener follows one, the reply ends there. */
const TURN_ENDS = ['<|im_end|>', '<|eot_id|>', '<|eom_id|>', '<|end_of_text|>', '<|endoftext|>', '<|end|>', '<end_of_turn>'];

/**
 * Mistral's and TinyLlama's end of turn, which is also HTML's end of strikethrough (`<s>old</s>`):
 * an end only where the reply ends after it, or another token follows it (white space aside).
 */
const TRAILING_END = '</s>';

/** Reasoning, kept whole for the parse and the prose filter: a model thinking about a tag is not writing one. */
export const { thinkOpen: THINK_OPEN, thinkClose: THINK_CLOSE } = MARKERS;

/** A tool result only the page can give (Hermes, LFM2): one the model writes itself is made up. */
const TOOL_RESULTS = ['<tool_response>', '<|tool_response_start|>'];

/** Tokens that open a turn, each with its role after it: ChatML, Llama 3, Gemma. */
const TURN_OPENERS = [
  { open: '<|im_start|>', close: '\n' },
  { open: '<|start_header_id|>', close: '<|end_header_id|>' },
  { open: '<start_of_turn>', close: '\n' },
];

/** The model's own roles: a turn of its own opened again is template noise, any other is not its to write. */
const OWN_ROLES = new Set(['assistant', 'model']);

/** A role is a short word: a longer run of letters after an opener is not held back for. */
const MAX_ROLE = 16;

const FIXED_TOKENS = [...TURN_ENDS, TRAILING_END, THINK_OPEN, ...TOOL_RESULTS, ...TURN_OPENERS.map(({ open }) => open)];

/** The characters that follow the `<` of a token. */
const SECOND_CHARACTERS: ReadonlySet<number> = new Set(FIXED_TOKENS.map((token) => token.charCodeAt(1)));

/** The second and third characters of the call and reasoning tags (`<to`, `<th`, `</t`, `<|t`). */
const MARKER_TEXTS = Object.values(MARKERS);
const MARKER_SECOND_CHARACTERS: ReadonlySet<number> = new Set(MARKER_TEXTS.map((marker) => marker.charCodeAt(1)));
const MARKER_THIRD_CHARACTERS: ReadonlySet<number> = new Set(MARKER_TEXTS.map((marker) => marker.charCodeAt(2)));

/**
 * Which call or reasoning tag starts at `at`, where `text[at]` is `<` (see matchMarkerAt): most
 * `<` (`< 20`, `<|im_end|>`, `<start_of_turn>`) are ruled out by the two characters after it.
 */
export function matchCallMarkerAt(text: string, at: number): MarkerMatch {
  if (at + 1 < text.length && !MARKER_SECOND_CHARACTERS.has(text.charCodeAt(at + 1))) return null;
  if (at + 2 < text.length && !MARKER_THIRD_CHARACTERS.has(text.charCodeAt(at + 2))) return null;
  return matchMarkerAt(text, at);
}

type TokenMatch = { kind: 'end' | 'tool-result' | 'think'; length: number } | { kind: 'opener'; length: number; own: boolean } | 'partial' | null;

/**
 * Which token starts at `at`, where `text[at]` is `<`: a whole one, the start of one cut off by
 * the end of the text so far (`atEnd` false), or none.
 */
export function matchTokenAt(text: string, at: number, atEnd: boolean): TokenMatch {
  const rest = text.length - at;
  // Most `<` in prose (`<b>`, `< 20`, `<div>`) are told apart by the character after it.
  if (rest > 1 && !SECOND_CHARACTERS.has(text.charCodeAt(at + 1))) return null;
  for (const token of TURN_ENDS) if (text.startsWith(token, at)) return { kind: 'end', length: token.length };
  if (text.startsWith(TRAILING_END, at)) {
    let next = at + TRAILING_END.length;
    while (next < text.length && /\s/.test(text[next] as string)) next += 1;
    if (next === text.length) return atEnd ? { kind: 'end', length: next - at } : 'partial';
    const following = text[next] === '<' ? matchTokenAt(text, next, atEnd) : null;
    if (following === 'partial') return 'partial';
    return following !== null && following.kind !== 'think' ? { kind: 'end', length: TRAILING_END.length } : null;
  }
  if (text.startsWith(THINK_OPEN, at)) return { kind: 'think', length: THINK_OPEN.length };
  for (const token of TOOL_RESULTS) if (text.startsWith(token, at)) return { kind: 'tool-result', length: token.length };
  for (const { open, close } of TURN_OPENERS) {
    if (!text.startsWith(open, at)) continue;
    let end = at + open.length;
    while (end < text.length && end - at - open.length < MAX_ROLE && /[A-Za-z_-]/.test(text[end] as string)) end += 1;
    const role = text.slice(at + open.length, end);
    if (!atEnd && end === text.length && role.length < MAX_ROLE) return 'partial';
    const after = text.slice(end);
    if (!atEnd && after.length < close.length && close.startsWith(after)) return 'partial';
    return { kind: 'opener', length: end - at + (after.startsWith(close) ? close.length : 0), own: OWN_ROLES.has(role.toLowerCase()) };
  }
  if (!atEnd && FIXED_TOKENS.some((token) => rest < token.length && token.startsWith(text.slice(at)))) return 'partial';
  return null;
}
