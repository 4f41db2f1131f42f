// Servers word a prompt too long for the model's context in many ways; telling it from their other
// refusals, and reading the context size they give, is a concept of its own.
import { contextFull, type EngineError } from '../engine';
import { isObject } from './is-object';

export interface RefusalReading {
  /**
   * Whether words to the effect of "exceeds the context" say it too: only for the status servers
   * refuse a prompt with (400). A server fault (500) or a proxy's refusal may name the context for
   * another reason ("context length of 32768 is too large for the memory"): there only a server's
   * own wording or figures count.
   */
  loose: boolean;
  /** The tokens the request asked for the reply, which a limit on the prompt alone leaves it. */
  replyTokens?: number;
}

/**
 * Whether a server's error says the prompt was longer than the model's context, and that
 * context where it gives it: llama.cpp's `exceed_context_size_error` (`n_ctx`), OpenAI's
 * `context_length_exceeded`, LM Studio's "loaded with (a) context length of (only) N" or
 * "n_keep … n_ctx: N", vLLM's "maximum context length is N" (where the prompt and the reply
 * together are too long: a prompt alone shorter than the reply's `max_tokens` would not help) or
 * "longer than the maximum model length of N", Ollama's "input length exceeds the context
 * length", Text Generation Inference's "`inputs` tokens + `max_new_tokens` must be <= N" (again
 * not where the reply alone is that long) or "`inputs` must have less than N tokens" (its limit on
 * the prompt alone), or, where `loose`, words to that effect. Then the error to throw. Not an error
 * about the server's own settings.
 */
export function contextRefusal(error: unknown, detail: string, modelLabel: string, { loose, replyTokens }: RefusalReading): EngineError | undefined {
  const fields = isObject(error) ? error : {};
  if (/\brequested context size\b/i.test(detail)) return undefined;
  const figure = (pattern: RegExp) => {
    const found = pattern.exec(detail)?.[1];
    return found === undefined ? undefined : Number(found);
  };
  const promptLimit = figure(/`?inputs`? must have less than (\d+) tokens/i);
  if (promptLimit !== undefined && promptLimit > 0) {
    return contextFull(modelLabel, replyTokens === undefined ? undefined : promptLimit + replyTokens, promptLimit);
  }
  const stated =
    figure(/\bloaded with (?:a )?context length of (?:only )?(\d+)/i) ??
    figure(/\bn_keep:\s*\d+\s*>=?\s*n_ctx:\s*(\d+)/i) ??
    figure(/\bmaximum context length is (\d+)/i) ??
    figure(/\bmaximum model length of (\d+)/i) ??
    figure(/\bcontext length \((\d+) tokens?\)/i) ??
    figure(/\b(\d+) maximum context length\b/i) ??
    figure(/\btokens \+ `?max_new_tokens`? must be <= (\d+)/i);
  // A refusal of the reply's own length (vLLM's, TGI's): only where the reply alone leaves the prompt no room.
  const replyLength =
    figure(/\bmax_(?:completion_)?tokens'? (?:or '?max_(?:completion_)?tokens'? )?is too large: (\d+)/i) ??
    figure(/\btokens and (\d+) `?max_new_tokens`?/i);
  if (replyLength !== undefined && (stated === undefined || replyLength >= stated)) return undefined;
  const tooLong =
    fields['type'] === 'exceed_context_size_error' ||
    fields['code'] === 'context_length_exceeded' ||
    stated !== undefined ||
    /\binput length exceeds the (?:maximum )?context length\b/i.test(detail) ||
    (loose && /\bcontext (?:size|length|window)\b/i.test(detail) && /\bexceed|\btoo (?:long|large)\b|\bnot enough\b|\blonger than\b/i.test(detail));
  if (!tooLong) return undefined;
  const size = fields['n_ctx'] ?? stated;
  return contextFull(modelLabel, typeof size === 'number' && Number.isInteger(size) && size > 0 ? size : undefined);
}
