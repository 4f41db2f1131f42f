/** How long a reply may go without a byte from the server before the engine gives up on it. */
export interface ReplyTimeouts {
  /** Until the first byte of the reply: a server may load the model from disk first. */
  firstByteMs: number;
  /**
   * And besides, for each token of the prompt: a server reads the whole prompt before its first
   * byte (after loading the model, which `firstByteMs` allows for), and one on a CPU may read only
   * some 20 tokens a second (a 4,000-token prompt, 3 minutes and 20 seconds more).
   */
  firstBytePerPromptTokenMs: number;
  /** Between two chunks once bytes came; reasoning deltas and keep-alive comments count. */
  betweenChunksMs: number;
  /**
   * Once the server said the reply finished (`finish_reason`), for the rest: its usage and
   * `[DONE]` come at once, and a server (or a proxy) that sends neither nor closes the stream must
   * not hold a whole answer for a minute. Running out here ends the reply as said, not in error.
   */
  afterFinishMs: number;
}

export const defaultReplyTimeouts: ReplyTimeouts = { firstByteMs: 120_000, firstBytePerPromptTokenMs: 50, betweenChunksMs: 60_000, afterFinishMs: 5_000 };

/** The timeouts of a reply to a prompt of `promptTokens`: the first byte may also take as long as the prompt does to read (see `firstBytePerPromptTokenMs`). */
export function timeoutsForPrompt(timeouts: ReplyTimeouts, promptTokens: number): ReplyTimeouts {
  return { ...timeouts, firstByteMs: timeouts.firstByteMs + promptTokens * timeouts.firstBytePerPromptTokenMs };
}

export type IdlePhase = 'first-byte' | 'between-chunks';

/**
 * A timer that aborts its `signal` when the server has been silent too long. Without it a server
 * that accepts the connection and stops sending keeps the run "Generating" until Stop.
 */
export interface IdleTimer {
  readonly signal: AbortSignal;
  /** Where the reply was when the timer ran out; undefined while it has not. */
  readonly expired: IdlePhase | undefined;
  /** How long the phase that ran out allowed. */
  readonly waitedMs: number;
  /** Something came from the server (or the reader was busy): the wait starts again. */
  touch(): void;
  /** Whether the server has said the reply finished: the wait for the rest is short (see `afterFinishMs`). */
  finished(said: boolean): void;
  stop(): void;
}

export function startIdleTimer(timeouts: ReplyTimeouts): IdleTimer {
  const controller = new AbortController();
  let phase: IdlePhase = 'first-byte';
  let expired: IdlePhase | undefined;
  let stopped = false;
  let afterFinish = false;
  const limit = () => (phase === 'first-byte' ? timeouts.firstByteMs : afterFinish ? timeouts.afterFinishMs : timeouts.betweenChunksMs);
  const expire = () => {
    expired = phase;
    controller.abort(new DOMException('The server stopped answering.', 'TimeoutError'));
  };
  let timer = setTimeout(expire, limit());
  // Handed around on its own (the event reader calls it for every chunk of bytes): no `this`.
  const touch = () => {
    if (stopped || expired) return;
    phase = 'between-chunks';
    clearTimeout(timer);
    timer = setTimeout(expire, limit());
  };
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    get waitedMs() {
      return limit();
    },
    touch,
    finished(said: boolean) {
      if (afterFinish === said) return;
      afterFinish = said;
      touch();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
