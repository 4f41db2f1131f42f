import type { AgentEvent } from './agent-events';
import { raceAbort } from './abortable';
import type { LanguageModel, ModelRequest, ModelUsage } from './language-model';
import { createProseFilter } from './prose-filter';

export interface StreamedReply {
  raw: string;
  usage: ModelUsage;
  modelMs: number;
}

/**
 * Streams one reply: every delta goes out raw (for the trace) and through the prose filter
 * (for the person). Rejects with an AbortError as soon as the signal aborts.
 */
export async function streamReply(
  model: LanguageModel,
  request: ModelRequest,
  step: number,
  emit: (event: AgentEvent) => void,
): Promise<StreamedReply> {
  const started = performance.now();
  const filter = createProseFilter();
  const parts: string[] = [];
  let usage: ModelUsage = {};
  const iterator = model.stream(request)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), request.signal);
      if (next.done) break;
      const chunk = next.value;
      if (chunk.type === 'usage') {
        usage = { ...usage, ...chunk.usage };
        continue;
      }
      if (chunk.text === '') continue;
      parts.push(chunk.text);
      emit({ type: 'text-delta', step, text: chunk.text });
      const prose = filter.push(chunk.text);
      if (prose) emit({ type: 'prose-delta', step, text: prose });
    }
  } catch (error) {
    // Tell the engine to stop producing; do not wait for it.
    void iterator.return?.().catch(() => {});
    throw error;
  }
  const rest = filter.flush();
  if (rest) emit({ type: 'prose-delta', step, text: rest });
  return { raw: parts.join(''), usage, modelMs: performance.now() - started };
}
