import type { ChatCompletionChunk, ChatCompletionRequestStreaming, CompletionUsage } from '@mlc-ai/web-llm';
import { defaultReplyTokens, tokensWritten, type ModelChunk, type ModelRequest, type ModelUsage } from '@webmcp-agents/local-agent';
import { contextFull, EngineError, longerReply, replyCutOff } from '../engine';
import { modelUsage, usageFigure } from '../usage-figure';
import { isConstraintError, toolCallConstraint } from './tool-call-constraint';
import type { WebLlmEngineLike } from './webllm-module';

export interface WebLlmReplyOptions {
  modelId: string;
  temperature: number;
  /** Constrain `<tool_call>` bodies to the shown tools' schemas (Hermes-format models only). */
  constrained: boolean;
  /** Qwen3: answer without a thinking block, which a small model spends most of its time on. */
  thinkingOff: boolean;
  /** "Qwen3 1.7B (q4f16)", to name the model when its context is full. */
  label?: string;
  /** The model's context in tokens, where the catalog knows it. */
  contextTokens?: number;
  /** The person's "Longest reply", for what a cut-off reply's hint offers (see longerReply). */
  replyTokens?: number;
}

/**
 * Streams one reply from WebLLM: text deltas as they come, then the usage chunk with WebLLM's own
 * speed figures. The abort signal interrupts generation, which ends the stream early, with the
 * usage of what was written until then.
 */
export async function* streamWebLlmReply(
  engine: WebLlmEngineLike,
  request: ModelRequest,
  options: WebLlmReplyOptions,
): AsyncGenerator<ModelChunk> {
  const { signal } = request;
  if (signal.aborted) return;
  const startedAt = performance.now();
  let firstTokenAt: number | undefined;
  let usage: CompletionUsage | undefined;
  let finishReason: string | null | undefined;
  let deltas = 0;
  // WebLLM's interrupt stops whatever it generates now: the caller makes sure that is this reply.
  const interrupt = () => void Promise.resolve(engine.interruptGenerate()).catch(() => {});
  signal.addEventListener('abort', interrupt, { once: true });
  try {
    for await (const chunk of await createStream(engine, request, options)) {
      if (chunk.usage) usage = chunk.usage;
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      const text = chunk.choices[0]?.delta?.content;
      if (!text) continue;
      firstTokenAt ??= performance.now();
      deltas += 1;
      yield { type: 'text-delta', text };
    }
  } finally {
    signal.removeEventListener('abort', interrupt);
  }
  // A reply told to stop (Stop, or one that went past the model's own turn) still says what it cost
  // until then: the trace shows the tokens WebLLM wrote.
  // Its figures come first even where the reply was cut off, for a loop that keeps what came before
  // the cut (a call written over and over).
  yield { type: 'usage', usage: toModelUsage(usage, { startedAt, firstTokenAt, endedAt: performance.now(), deltas }) };
  if (!signal.aborted) {
    // A cut-off reply is not an answer: a half-written call or sentence must not pass for one.
    if (finishReason === 'length') throw cutOff(usage, request.maxTokens ?? defaultReplyTokens, options);
    if (finishReason === 'abort') throw new EngineError('unavailable', 'WebLLM stopped the reply before it was done.', 'Send your request again.');
  }
}

/**
 * Tokens WebLLM counts toward `max_tokens` but not in `completion_tokens`: the empty reasoning block
 * it starts a reply with where thinking is off (4 of Qwen3's), with room for another tokenizer's.
 */
const openingTokensUncounted = 8;

/**
 * WebLLM says `length` both at `max_tokens` and when the context window fills up; fewer tokens
 * than `max_tokens` means the window, where a shorter question would not help.
 */
function cutOff(usage: CompletionUsage | undefined, maxTokens: number, options: WebLlmReplyOptions): EngineError {
  if (usage === undefined) return replyCutOff(`${maxTokens.toLocaleString('en-US')} tokens or the end of the model's context`, true);
  const uncounted = options.thinkingOff ? openingTokensUncounted : 0;
  if (usage.completion_tokens < maxTokens - uncounted) return contextFull(options.label ?? options.modelId, options.contextTokens);
  return replyCutOff(`${maxTokens.toLocaleString('en-US')} tokens`, false, longerReply(options.replyTokens, options.contextTokens));
}

async function createStream(
  engine: WebLlmEngineLike,
  request: ModelRequest,
  options: WebLlmReplyOptions,
): Promise<AsyncIterable<ChatCompletionChunk>> {
  const constrained = options.constrained && request.tools.length > 0;
  const body: ChatCompletionRequestStreaming = {
    model: options.modelId,
    messages: request.messages.map(({ role, content }) => ({ role, content })) as ChatCompletionRequestStreaming['messages'],
    stream: true,
    stream_options: { include_usage: true },
    temperature: options.temperature,
    max_tokens: request.maxTokens ?? defaultReplyTokens,
    ...(options.thinkingOff ? { extra_body: { enable_thinking: false } } : {}),
  };
  if (!constrained) return engine.chat.completions.create(body);
  try {
    // WebLLM compiles the grammar when the reply starts, so its error comes with the first chunk.
    const stream = await engine.chat.completions.create({ ...body, response_format: toolCallConstraint(request.tools) });
    return await withFirstChunkRead(stream);
  } catch (error) {
    // A schema the grammar compiler cannot take must not cost the person the reply, unless they
    // stopped it meanwhile: WebLLM's next request would clear the interrupt.
    if (!isConstraintError(error)) throw error;
    if (request.signal.aborted) return noChunks();
    return engine.chat.completions.create(body);
  }
}

async function* noChunks(): AsyncGenerator<ChatCompletionChunk> {}

/** Reads the first chunk now (so its error surfaces here) and hands back the whole stream. */
async function withFirstChunkRead<T>(stream: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      } finally {
        await iterator.return?.();
      }
    },
  };
}

interface LocalTiming {
  startedAt: number;
  firstTokenAt: number | undefined;
  endedAt: number;
  deltas: number;
}

/** WebLLM's usage figures where it gave them, measured here where it did not. */
export function toModelUsage(usage: CompletionUsage | undefined, timing: LocalTiming): ModelUsage {
  const extra = usage?.extra;
  const measuredFirstTokenMs = timing.firstTokenAt === undefined ? undefined : timing.firstTokenAt - timing.startedAt;
  const completionTokens = tokensWritten(usage?.completion_tokens, timing.deltas);
  const decodeSeconds = timing.firstTokenAt === undefined ? 0 : (timing.endedAt - timing.firstTokenAt) / 1000;
  const firstTokenMs = extra?.time_to_first_token_s !== undefined ? extra.time_to_first_token_s * 1000 : measuredFirstTokenMs;
  const measuredDecode = decodeSeconds > 0 && completionTokens > 1 ? (completionTokens - 1) / decodeSeconds : undefined;
  return modelUsage({
    promptTokens: usage?.prompt_tokens,
    completionTokens,
    timeToFirstTokenMs: firstTokenMs,
    prefillTokensPerSecond: extra?.prefill_tokens_per_s,
    // WebLLM's own figure is 0/0 for a reply that ends on its first token.
    decodeTokensPerSecond: usageFigure(extra?.decode_tokens_per_s) ?? measuredDecode,
  });
}
