import { enterRegion, readBody, startCutState } from './turn-cut/cut-state';
import { scanReply } from './turn-cut/scan-reply';

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
  // The reading itself is in turn-cut/: its phases take this state as an input, not a shared closure.
  const state = startCutState();
  return {
    get over() {
      return state.over;
    },
    push(delta: string): string {
      if (state.over || typeof delta !== 'string' || delta === '') return '';
      // Most deltas hold no `<` at all and come with nothing held: pass them on without copying.
      if (state.held === '' && !state.ended && delta.indexOf('<') === -1) {
        readBody(state, delta, 0, delta.length);
        state.before = delta[delta.length - 1] as string;
        return delta;
      }
      const work = state.held + delta;
      state.held = '';
      const shown = scanReply(state, work, false);
      const scanned = work.length - state.held.length;
      if (scanned > 0) state.before = work[scanned - 1] as string;
      return shown;
    },
    flush(): string {
      // A held tail that never became a token is the model's text; white space after a turn end is not.
      const rest = state.over ? '' : scanReply(state, state.held, true);
      state.held = '';
      state.ended = false;
      state.over = false;
      enterRegion(state, 'prose');
      state.before = '';
      return rest;
    },
  };
}

/** A whole reply's own turn (see createOwnTurn). */
export function ownTurn(raw: string): string {
  const turn = createOwnTurn();
  return turn.push(raw) + turn.flush();
}
