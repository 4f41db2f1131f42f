import { MARKERS, markerEffect, matchMarkerAt, type MarkerMatch, type RegionKind } from './parsing/markup-markers';

/**
 * Keeps what is the model's own turn of a streamed reply. A misconfigured server, or a model that
 * runs past its stop token, hands over chat-template tokens (`<|im_end|>`, `<|eot_id|>`, `</s>`…)
 * and sometimes goes on to write the next turns itself: a made-up tool result after its call, or
 * the person's next message. None of that is the model's answer: the tokens are taken out, and the
 * reply ends where a turn that is not its own starts. The trace keeps the raw reply.
 */
export interface OwnTurn {
  /** The model's own turn so far, holding back a tail that might start a token. */
  push(delta: string): string;
  /** What is left at the end of the reply; it is then ready for a new reply. */
  flush(): string;
  /**
   * The reply went on to a turn not its own (see createOwnTurn): nothing it writes from here is
   * kept, so the model may be stopped. Never set by a tag inside `<think>`, in inline code or in a
   * string of a call's arguments, nor by a turn end alone.
   */
  readonly over: boolean;
}

/** Tokens that end a turn. Taken out; where a turn opener follows one, the reply ends there. */
const TURN_ENDS = ['<|im_end|>', '<|eot_id|>', '<|eom_id|>', '<|end_of_text|>', '<|endoftext|>', '<|end|>', '<end_of_turn>'];

/**
 * Mistral's and TinyLlama's end of turn, which is also HTML's end of strikethrough (`<s>old</s>`):
 * an end only where the reply ends after it, or another token follows it (white space aside).
 */
const TRAILING_END = '</s>';

/** Reasoning, kept whole for the parse and the prose filter: a model thinking about a tag is not writing one. */
const { thinkOpen: THINK_OPEN, thinkClose: THINK_CLOSE } = MARKERS;

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
function matchCallMarkerAt(text: string, at: number): MarkerMatch {
  if (at + 1 < text.length && !MARKER_SECOND_CHARACTERS.has(text.charCodeAt(at + 1))) return null;
  if (at + 2 < text.length && !MARKER_THIRD_CHARACTERS.has(text.charCodeAt(at + 2))) return null;
  return matchMarkerAt(text, at);
}

/**
 * How far the reading of a call's body has come: how deep in its brackets, and in which string
 * literal (its quote's code; 0 outside one). JSON's strings take `"`, the lenient parse's and
 * LFM2's Python-like calls `'` too.
 */
interface CallBody {
  depth: number;
  quote: number;
  escaped: boolean;
}

/**
 * Reads `text` from `from` to `to` into a call's body; false once its outermost brackets have
 * closed: what follows them is no longer the call's arguments, and a tag there is not in a string.
 */
function readCallBody(body: CallBody, text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at += 1) {
    const code = text.charCodeAt(at);
    if (body.quote !== 0) {
      if (body.escaped) body.escaped = false;
      else if (code === 0x5c /* \ */) body.escaped = true;
      else if (code === body.quote) body.quote = 0;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */ || code === 0x28 /* ( */) {
      body.depth += 1;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */ || code === 0x29 /* ) */) {
      if (body.depth === 0) continue;
      body.depth -= 1;
      if (body.depth === 0) return false;
    } else if ((code === 0x22 /* " */ || code === 0x27 /* ' */) && body.depth > 0) {
      body.quote = code;
    }
  }
  return true;
}

type TokenMatch = { kind: 'end' | 'tool-result' | 'think'; length: number } | { kind: 'opener'; length: number; own: boolean } | 'partial' | null;

/**
 * Which token starts at `at`, where `text[at]` is `<`: a whole one, the start of one cut off by
 * the end of the text so far (`atEnd` false), or none.
 */
function matchTokenAt(text: string, at: number, atEnd: boolean): TokenMatch {
  const rest = text.length - at;
  // Most `<` in prose (`<b>`, `< 20`, `<think>`) are told apart by the character after it.
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

/**
 * Takes the reply's raw deltas and gives back its own turn, the same however the reply is cut
 * into chunks. Turn-end tokens and openers of the model's own turn are dropped; the reply ends at
 * a made-up tool result, at a turn opened for anyone else (the person, a tool, the system), and at
 * a turn end that a new turn follows. White space after a turn end is held until what follows
 * shows which. Reasoning (`<think>…</think>`) passes whole: the prose filter and the parse take
 * it out, and a tag the model merely thinks about must not cut the call it then writes. So does a
 * tag in inline code (right after a backtick): the model is writing about it, not writing it. And
 * so does any token in a string of a call's arguments (`{"text": "<tool_response> tags"}`), which
 * is the page's to read: call regions are followed as the parse reads them (see markerEffect), and
 * past the call's outermost brackets (a call whose closing tag was forgotten) a tag cuts again.
 */
export function createOwnTurn(): OwnTurn {
  // The unjudged tail: the start of a token, or white space after a turn end.
  let held = '';
  // Right after a turn-end token (and any white space since).
  let ended = false;
  // The reply went on to a turn not its own: the rest is dropped.
  let over = false;
  // Inside `<think>` (passed on as it is until `</think>`), a call, or neither.
  let region: RegionKind | 'prose' = 'prose';
  // The call's body while its arguments are being read: null elsewhere, and past its brackets.
  let body: CallBody | null = null;
  // The last character before what is scanned now: a backtick makes a token that follows it code.
  let before = '';

  function scan(work: string, atEnd: boolean): string {
    let shown = '';
    let cursor = 0;
    while (cursor < work.length) {
      if (region === 'think') {
        const close = work.indexOf(THINK_CLOSE, cursor);
        if (close === -1) {
          const partial = atEnd ? 0 : partialSuffix(work, THINK_CLOSE);
          held = work.slice(work.length - partial);
          return shown + work.slice(cursor, work.length - partial);
        }
        shown += work.slice(cursor, close + THINK_CLOSE.length);
        cursor = close + THINK_CLOSE.length;
        region = 'prose';
        continue;
      }
      if (ended) {
        let next = cursor;
        while (next < work.length && /\s/.test(work[next] as string)) next += 1;
        if (next === work.length) {
          if (!atEnd) held = work.slice(cursor);
          return shown;
        }
        const match = work[next] === '<' ? matchTokenAt(work, next, atEnd) : null;
        if (match === 'partial') {
          held = work.slice(cursor);
          return shown;
        }
        if (match !== null && match.kind !== 'end') {
          over = true;
          return shown;
        }
        ended = false;
        if (match !== null) {
          // Another turn end (`<|im_end|><|endoftext|>`): still after the end.
          ended = true;
          cursor = next + match.length;
          continue;
        }
      }
      const at = work.indexOf('<', cursor);
      // The `<` too, which ends an escape that a backslash before it began.
      read(work, cursor, at === -1 ? work.length : at + 1);
      if (at === -1) return shown + work.slice(cursor);
      shown += work.slice(cursor, at);
      const marker = matchCallMarkerAt(work, at);
      if (marker === 'partial' && !atEnd) {
        held = work.slice(at);
        return shown;
      }
      const effect = marker === null || marker === 'partial' ? 'content' : markerEffect(region, marker);
      if (marker !== null && marker !== 'partial' && (effect === 'close' || typeof effect === 'object')) {
        enter(effect === 'close' ? 'prose' : effect.open);
        shown += MARKERS[marker];
        cursor = at + MARKERS[marker].length;
        continue;
      }
      // In a string of a call's arguments, every token is text the page gets.
      if (body !== null && body.quote !== 0) {
        shown += '<';
        cursor = at + 1;
        continue;
      }
      const match = matchTokenAt(work, at, atEnd);
      if (match === 'partial') {
        held = work.slice(at);
        return shown;
      }
      if (match === null) {
        shown += '<';
        cursor = at + 1;
        continue;
      }
      if (match.kind === 'tool-result' || (match.kind === 'opener' && !match.own)) {
        // In inline code (`<tool_response>`) the model writes about the tag, as in its reasoning.
        if ((at > 0 ? work[at - 1] : before) === '`') {
          shown += '<';
          cursor = at + 1;
          continue;
        }
        over = true;
        return shown;
      }
      // Reasoning opens above; a `<think>` that gets here is in a call, where the parse reads it as the call's.
      if (match.kind === 'think') shown += THINK_OPEN;
      if (match.kind === 'end') ended = true;
      cursor = at + match.length;
    }
    return shown;
  }

  /** Goes into a region: a call's body is read from its start. */
  function enter(next: RegionKind | 'prose'): void {
    region = next;
    body = next === 'hermes' || next === 'lfm2' ? { depth: 0, quote: 0, escaped: false } : null;
  }

  /** Reads text into the open call's body, if one is being read. */
  function read(text: string, from: number, to: number): void {
    if (body !== null && !readCallBody(body, text, from, to)) body = null;
  }

  return {
    get over() {
      return over;
    },
    push(delta: string): string {
      if (over || typeof delta !== 'string' || delta === '') return '';
      // Most deltas hold no `<` at all and come with nothing held: pass them on without copying.
      if (held === '' && !ended && delta.indexOf('<') === -1) {
        read(delta, 0, delta.length);
        before = delta[delta.length - 1] as string;
        return delta;
      }
      const work = held + delta;
      held = '';
      const shown = scan(work, false);
      const scanned = work.length - held.length;
      if (scanned > 0) before = work[scanned - 1] as string;
      return shown;
    },
    flush(): string {
      // A held tail that never became a token is the model's text; white space after a turn end is not.
      const rest = over ? '' : scan(held, true);
      held = '';
      ended = false;
      over = false;
      enter('prose');
      before = '';
      return rest;
    },
  };
}

/** How many characters at the end of `text` could start `token`. */
function partialSuffix(text: string, token: string): number {
  for (let length = Math.min(token.length - 1, text.length); length > 0; length -= 1) if (token.startsWith(text.slice(text.length - length))) return length;
  return 0;
}

/** A whole reply's own turn (see createOwnTurn). */
export function ownTurn(raw: string): string {
  const turn = createOwnTurn();
  return turn.push(raw) + turn.flush();
}
