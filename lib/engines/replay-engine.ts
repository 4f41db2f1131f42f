import type { LanguageModel, ModelChunk, ModelRequest } from '@webmcp-agents/local-agent';

export interface ReplayOptions {
  /** Characters per streamed chunk, as a model would send them. Default 4. */
  chunkSize?: number;
  /** Milliseconds between chunks. Default 0 (no timer at all). */
  delayMs?: number;
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
      const reply = replies[requests.length] ?? '(The recording has no more replies.)';
      requests.push(request);
      for (let index = 0; index < reply.length; index += chunkSize) {
        if (request.signal.aborted) return;
        if (delayMs > 0) await sleep(delayMs, request.signal);
        yield { type: 'text-delta', text: reply.slice(index, index + chunkSize) };
      }
      yield { type: 'usage', usage: { completionTokens: Math.ceil(reply.length / 4) } };
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
