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

  // What this scan passes on so far.
  let shown = '';

  /** Reads `work` phase by phase, each phase saying where the next starts (its end once it stops). */
  function scan(work: string, atEnd: boolean): string {
    let cursor = 0;
    while (cursor < work.length) {
      if (region === 'think') cursor = passThink(work, cursor, atEnd);
      else if (ended) cursor = afterEnd(work, cursor, atEnd);
      else cursor = readProse(work, cursor, atEnd);
    }
    const text = shown;
    shown = '';
    return text;
  }

  /** Inside reasoning: passes it on as it is, up to and with `</think>`. */
  function passThink(work: string, cursor: number, atEnd: boolean): number {
    const close = work.indexOf(THINK_CLOSE, cursor);
    if (close === -1) {
      const partial = atEnd ? 0 : partialSuffix(work, THINK_CLOSE);
      keep(work, cursor, work.length - partial);
      return hold(work, work.length - partial);
    }
    region = 'prose';
    return keep(work, cursor, close + THINK_CLOSE.length);
  }

  /** Right after a turn end: its white space shows nothing until what follows says whether a new turn starts. */
  function afterEnd(work: string, cursor: number, atEnd: boolean): number {
    let next = cursor;
    while (next < work.length && /\s/.test(work[next] as string)) next += 1;
    if (next === work.length) return atEnd ? work.length : hold(work, cursor);
    const match = work[next] === '<' ? matchTokenAt(work, next, atEnd) : null;
    if (match === 'partial') return hold(work, cursor);
    if (match !== null && match.kind !== 'end') return cut(work);
    // Another turn end (`<|im_end|><|endoftext|>`): still after the end.
    if (match !== null) return next + match.length;
    ended = false;
    return cursor;
  }

  /** Prose or a call: passes it on up to the next `<`, and reads what starts there. */
  function readProse(work: string, cursor: number, atEnd: boolean): number {
    const at = work.indexOf('<', cursor);
    // The `<` too, which ends an escape that a backslash before it began.
    read(work, cursor, at === -1 ? work.length : at + 1);
    if (at === -1) return keep(work, cursor, work.length);
    keep(work, cursor, at);
    return readTag(work, at, atEnd);
  }

  /** At a `<`: a tag that opens or closes a call or reasoning passes on, as it does for the parse. */
  function readTag(work: string, at: number, atEnd: boolean): number {
    const marker = matchCallMarkerAt(work, at);
    if (marker === 'partial' && !atEnd) return hold(work, at);
    if (marker !== null && marker !== 'partial') {
      const effect = markerEffect(region, marker);
      if (effect === 'close' || typeof effect === 'object') {
        enter(effect === 'close' ? 'prose' : effect.open);
        return keep(work, at, at + MARKERS[marker].length);
      }
    }
    // In a string of a call's arguments, every token is text the page gets.
    if (body !== null && body.quote !== 0) return keep(work, at, at + 1);
    return readToken(work, at, atEnd);
  }

  /** At a `<` that may start a chat-template token: drops it, ends the reply there, or passes it on. */
  function readToken(work: string, at: number, atEnd: boolean): number {
    const match = matchTokenAt(work, at, atEnd);
    if (match === 'partial') return hold(work, at);
    if (match === null) return keep(work, at, at + 1);
    if (match.kind === 'tool-result' || (match.kind === 'opener' && !match.own)) {
      // In inline code (`<tool_response>`) the model writes about the tag, as in its reasoning.
      return (at > 0 ? work[at - 1] : before) === '`' ? keep(work, at, at + 1) : cut(work);
    }
    // Reasoning opens above; a `<think>` that gets here is in a call, where the parse reads it as the call's.
    if (match.kind === 'think') shown += THINK_OPEN;
    if (match.kind === 'end') ended = true;
    return at + match.length;
  }

  /** Passes `work` on from `from` to `to`, where reading goes on. */
  function keep(work: string, from: number, to: number): number {
    shown += work.slice(from, to);
    return to;
  }

  /** Holds the tail from `from` until more of the reply shows what it is; this scan is done. */
  function hold(work: string, from: number): number {
    held = work.slice(from);
    return work.length;
  }

  /** The reply went on to a turn not its own: nothing more is kept. */
  function cut(work: string): number {
    over = true;
    return work.length;
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
