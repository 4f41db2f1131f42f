import type { AgentEvent } from './agent-events';
import { raceAbort } from './abortable';
import type { LanguageModel, ModelRequest, ModelUsage } from './language-model';
import { createProseFilter } from './prose-filter';

export interface StreamedReply {
  raw: string;
  usage: ModelUsage;
  modelMs: number;
  /**
   * The prose held back because the reply opened like a JSON call (`{` or a code fence), which
   * the prose filter cannot tell from an answer: the loop shows what is left of it once parsed.
   */
  heldProse?: string;
}

/**
 * Streams one reply: every delta goes out raw (for the trace) and through the prose filter
 * (for the person), except prose that opens like a bare JSON call, held for the loop (see
 * `heldProse`). Rejects with an AbortError as soon as the signal aborts.
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
  // undefined once the reply has shown it is prose; until then, what the filter let through.
  let held: string | undefined = '';
  // Set once the opening is known to be JSON or a fence: then the rest is held without looking.
  let holdToEnd = false;
  const show = (prose: string) => {
    if (held !== undefined) {
      held += prose;
      if (holdToEnd) return;
      const opening = held.trimStart().slice(0, 3);
      if (opening === '' || mayOpenJsonCall(opening)) {
        holdToEnd = opening.length === 3 || /^[{[]/.test(opening);
        return;
      }
      prose = held;
      held = undefined;
    }
    emit({ type: 'prose-delta', step, text: prose });
  };
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
      if (prose) show(prose);
    }
  } catch (error) {
    // Tell the engine to stop producing; do not wait for it.
    void iterator.return?.().catch(() => {});
    // What was held back is all the person gets of a reply that failed or was stopped.
    if (held) emit({ type: 'prose-delta', step, text: held });
    throw error;
  }
  const rest = filter.flush();
  if (rest) show(rest);
  const reply: StreamedReply = { raw: parts.join(''), usage, modelMs: performance.now() - started };
  if (held) reply.heldProse = held;
  return reply;
}

// A reply that is a JSON object or list, or a fenced block, may be a call (Llama 3's bare JSON,
// a list of calls) or not. `opening` is its first (up to) three characters.
function mayOpenJsonCall(opening: string): boolean {
  return /^[{[]/.test(opening) || '```'.startsWith(opening);
}
