import type { ChatCompletionChunk, ChatCompletionRequestStreaming, CompletionUsage } from '@mlc-ai/web-llm';
import type { ModelChunk, ModelRequest, ModelUsage } from '@webmcp-agents/local-agent';
import { isConstraintError, toolCallConstraint } from './tool-call-constraint';
import type { WebLlmEngineLike } from './webllm-module';

export interface WebLlmReplyOptions {
  modelId: string;
  temperature: number;
  /** Constrain `<tool_call>` bodies to the shown tools' schemas (Hermes-format models only). */
  constrained: boolean;
  /** Qwen3: answer without a thinking block, which a small model spends most of its time on. */
  thinkingOff: boolean;
  maxTokens?: number;
}

/**
 * Streams one reply from WebLLM: text deltas as they come, then the usage chunk with WebLLM's own
 * speed figures. The abort signal interrupts generation, which ends the stream early.
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
  let deltas = 0;
  const interrupt = () => void Promise.resolve(engine.interruptGenerate()).catch(() => {});
  signal.addEventListener('abort', interrupt, { once: true });
  try {
    const chunks = await createStream(engine, request, options);
    for await (const chunk of chunks) {
      if (chunk.usage) usage = chunk.usage;
      const text = chunk.choices[0]?.delta?.content;
      if (!text) continue;
      firstTokenAt ??= performance.now();
      deltas += 1;
      yield { type: 'text-delta', text };
    }
  } finally {
    signal.removeEventListener('abort', interrupt);
  }
  yield { type: 'usage', usage: toModelUsage(usage, { startedAt, firstTokenAt, endedAt: performance.now(), deltas }) };
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
    max_tokens: options.maxTokens ?? 1024,
    ...(options.thinkingOff ? { extra_body: { enable_thinking: false } } : {}),
  };
  if (!constrained) return engine.chat.completions.create(body);
  try {
    return await engine.chat.completions.create({ ...body, response_format: toolCallConstraint(request.tools) });
  } catch (error) {
    // A schema the grammar compiler cannot take must not cost the person the reply.
    if (!isConstraintError(error)) throw error;
    return engine.chat.completions.create(body);
  }
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
  const completionTokens = usage?.completion_tokens ?? timing.deltas;
  const decodeSeconds = timing.firstTokenAt === undefined ? 0 : (timing.endedAt - timing.firstTokenAt) / 1000;
  const result: ModelUsage = { completionTokens };
  if (usage?.prompt_tokens !== undefined) result.promptTokens = usage.prompt_tokens;
  const firstTokenMs = extra?.time_to_first_token_s !== undefined ? extra.time_to_first_token_s * 1000 : measuredFirstTokenMs;
  if (firstTokenMs !== undefined) result.timeToFirstTokenMs = round(firstTokenMs);
  if (extra?.prefill_tokens_per_s !== undefined) result.prefillTokensPerSecond = round(extra.prefill_tokens_per_s);
  if (extra?.decode_tokens_per_s !== undefined) result.decodeTokensPerSecond = round(extra.decode_tokens_per_s);
  else if (decodeSeconds > 0 && completionTokens > 1) result.decodeTokensPerSecond = round((completionTokens - 1) / decodeSeconds);
  return result;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
