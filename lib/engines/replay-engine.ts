import { pause } from '@webmcp-agents/chat';
import type { LanguageModel, ModelChunk, ModelRequest } from '@webmcp-agents/local-agent';
import { EngineError } from './engine';

export interface ReplayOptions {
  /** Characters per streamed chunk, as a model would send them. Default 4. */
  chunkSize?: number;
  /** Milliseconds between chunks. Default 0 (no timer at all). */
  delayMs?: number;
  /**
   * The replies (by index) that their engine ended with an error once written, as its length limit
   * does: each ends with one too, so that a looping reply is kept as it was.
   */
  cutOff?: ReadonlySet<number>;
  /** The thoughts (by reply index) their engine sent apart from the reply, sent so again first. */
  thoughts?: ReadonlyMap<number, string>;
}

/**
 * Plays back recorded model replies, one per step, streamed in small chunks. Tests use it, and the
 * trace viewer replays a recorded run with it. Past the last recording it answers with a note.
 */
export function createReplayEngine(replies: readonly string[], options: ReplayOptions = {}): LanguageModel & {
  readonly requests: ModelRequest[];
} {
  const chunkSize = Math.max(1, options.chunkSize ?? 4);
  const delayMs = options.delayMs ?? 0;
  const requests: ModelRequest[] = [];
  return {
    requests,
    async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
      const index = requests.length;
      const reply = replies[index] ?? '(The recording has no more replies.)';
      requests.push(request);
      const thoughts = options.thoughts?.get(index) ?? '';
      for (let at = 0; at < thoughts.length; at += chunkSize) {
        if (request.signal.aborted) return;
        if (delayMs > 0) await pause(delayMs, request.signal);
        yield { type: 'thinking', text: thoughts.slice(at, at + chunkSize) };
      }
      for (let at = 0; at < reply.length; at += chunkSize) {
        if (request.signal.aborted) return;
        if (delayMs > 0) await pause(delayMs, request.signal);
        yield { type: 'text-delta', text: reply.slice(at, at + chunkSize) };
      }
      // No figures: no model wrote the reply, and a count made up from its length would read in the
      // trace as the tokens of one (a replayed run's as the recording's).
      if (options.cutOff?.has(index) && !request.signal.aborted) throw recordedCutOff();
    },
  };
}

/** Where the recording says only that its engine cut the reply off, not why (a length limit, mostly). */
function recordedCutOff(): EngineError {
  return new EngineError('reply-cut-off', 'The recorded reply was cut off here, and so is its replay.', 'See the recording for how the run went on.');
}

