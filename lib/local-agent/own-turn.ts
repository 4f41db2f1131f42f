import { readCallBody, startBody, type CallBody } from './call-body';
import { MARKERS, markerEffect, type RegionKind } from './parsing/markup-markers';
import { matchCallMarkerAt, matchTokenAt, THINK_CLOSE, THINK_OPEN } from './turn-tokens';

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
    body = next === 'hermes' || next === 'lfm2' ? startBody() : null;
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
