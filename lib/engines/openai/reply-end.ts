// Apart from reading a streamed reply: what its end means, the usage that closes it or the error
// that says why what came is no answer.
import { isTurnOver, type ModelChunk, type ModelRequest } from '@webmcp-agents/local-agent';
import { lengthError, type LengthLimits } from './length-error';
import type { IdleTimer } from './reply-timeouts';
import { replyUnfinished, replyUnreadable, serverStalled } from './server-errors';
import { serverUsage, type ServerFigures } from './server-usage';

/** What a streamed reply held, as far as it was read. */
export interface StreamCounts {
  /** Events, `[DONE]` included. */
  events: number;
  /** Deltas of the reply's text. */
  deltas: number;
  /** Deltas of the model's thoughts, sent apart from its text. */
  thoughts: number;
  /** Events whose data is not JSON. */
  unreadable: number;
  /** Lines that are no part of an event stream (plain text, Ollama's own NDJSON). */
  strayLines: number;
}

/** Where reading a stream stopped: what it counted, the server's last figures, and how it said it ended. */
export interface StreamEnd {
  counts: StreamCounts;
  last: ServerFigures;
  finishReason: string | undefined;
  sawDone: boolean;
  firstTokenAt: number | undefined;
}

/**
 * The chunk that closes a streamed reply once reading it stopped: its usage (none after a Stop),
 * then, thrown, the error that says why what came is no answer, if it is none.
 */
export function* replyEnd(request: ModelRequest, reading: LengthLimits & { timer: IdleTimer; startedAt: number }, end: StreamEnd): Generator<ModelChunk> {
  const { address, timer } = reading;
  const { counts, last, finishReason, sawDone, firstTokenAt } = end;
  if (timer.expired && finishReason === undefined) throw serverStalled(address, timer.expired, timer.waitedMs);
  const usage = (): ModelChunk => ({ type: 'usage', usage: serverUsage(last, { startedAt: reading.startedAt, firstTokenAt, endedAt: performance.now() }) });
  if (request.signal.aborted) {
    // A reply stopped at the end of the model's own turn still says what it cost until then: the
    // server's figures come only at its end, so only the time measured here. A Stop says nothing.
    if (isTurnOver(request.signal.reason)) yield usage();
    return;
  }
  if (finishReason === 'length') {
    // Its figures come first, as WebLLM's do, for a loop that keeps what came before the cut (a
    // call written over and over). A cut-off reply is not an answer: a half-written call or
    // sentence must not pass for one.
    yield usage();
    throw lengthError(last, reading, counts.deltas === 0 && counts.thoughts > 0);
  }
  if (unreadableOnly(counts)) throw replyUnreadable(address);
  if (!sawDone && finishReason === undefined) throw replyUnfinished(address);
  yield usage();
}

/**
 * Nothing but what this extension cannot read is no reply, and no answer either: events whose data
 * is not JSON, or text with no event at all. Said before "closed in the middle of a reply": such a
 * stream rarely ends the way the API's does.
 */
function unreadableOnly({ events, deltas, unreadable, strayLines }: StreamCounts): boolean {
  return deltas === 0 && (unreadable > 0 || (events === 0 && strayLines > 0));
}
