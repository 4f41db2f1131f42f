import type { ModelChunk, ModelRequest, ModelUsage } from '@webmcp-agents/local-agent';
import { EngineError, replyCutOff } from '../engine';
import { readServerSentEvents } from './read-server-sent-events';
import { serverHost } from './server-address';
import { serverDown, serverRefused } from './server-errors';

export interface OpenAiReplyOptions {
  address: string;
  model: string;
  temperature: number;
  fetch: typeof fetch;
  permissionGranted?: boolean;
}

/** One streamed chunk as OpenAI-compatible servers send it; llama.cpp adds its own `timings`. */
interface CompletionChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  timings?: { prompt_n?: number; prompt_per_second?: number; predicted_n?: number; predicted_per_second?: number };
  error?: { message?: string } | string;
}

/**
 * Streams one chat completion over SSE from a local server: text deltas, then the usage with
 * the server's token counts and the speed measured here (or the server's own, where it says).
 */
export async function* streamOpenAiReply(request: ModelRequest, options: OpenAiReplyOptions): AsyncGenerator<ModelChunk> {
  const startedAt = performance.now();
  const response = await post(request, options);
  let firstTokenAt: number | undefined;
  let deltas = 0;
  let last: CompletionChunk = {};
  let finishReason: string | null | undefined;
  for await (const data of readServerSentEvents(response.body!)) {
    if (data === '[DONE]') break;
    const chunk = parseChunk(data);
    if (!chunk) continue;
    if (chunk.error) throw streamError(options.address, chunk.error);
    if (chunk.usage) last = { ...last, usage: chunk.usage };
    if (chunk.timings) last = { ...last, timings: chunk.timings };
    finishReason = chunk.choices?.[0]?.finish_reason ?? finishReason;
    const text = chunk.choices?.[0]?.delta?.content;
    if (!text) continue;
    firstTokenAt ??= performance.now();
    deltas += 1;
    yield { type: 'text-delta', text };
  }
  // A cut-off reply is not an answer: a half-written call or sentence must not pass for one.
  if (finishReason === 'length') throw replyCutOff("the server's length limit or the end of the model's context");
  yield { type: 'usage', usage: serverUsage(last, { startedAt, firstTokenAt, endedAt: performance.now(), deltas }) };
}

async function post(request: ModelRequest, options: OpenAiReplyOptions): Promise<Response> {
  const body = {
    model: options.model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    stream: true,
    stream_options: { include_usage: true },
    temperature: options.temperature,
  };
  let response: Response;
  try {
    response = await options.fetch(`${options.address}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw serverDown(options.address, options.permissionGranted);
  }
  if (!response.ok || !response.body) throw await serverRefused(options.address, response, options.model);
  return response;
}

function parseChunk(data: string): CompletionChunk | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as CompletionChunk) : undefined;
  } catch {
    return undefined;
  }
}

function streamError(address: string, error: NonNullable<CompletionChunk['error']>): EngineError {
  const message = typeof error === 'string' ? error : (error.message ?? 'unknown error');
  return new EngineError(
    'unavailable',
    `The server at ${serverHost(address)} stopped the reply: ${message.slice(0, 200)}`,
    'Check the server\'s own log, then send your request again.',
  );
}

interface Timing {
  startedAt: number;
  firstTokenAt: number | undefined;
  endedAt: number;
  deltas: number;
}

function serverUsage(last: CompletionChunk, timing: Timing): ModelUsage {
  const promptTokens = last.usage?.prompt_tokens ?? last.timings?.prompt_n;
  const completionTokens = last.usage?.completion_tokens ?? last.timings?.predicted_n ?? timing.deltas;
  const usage: ModelUsage = { completionTokens };
  if (promptTokens !== undefined) usage.promptTokens = promptTokens;
  if (timing.firstTokenAt === undefined) return usage;
  const firstTokenMs = timing.firstTokenAt - timing.startedAt;
  const decodeSeconds = (timing.endedAt - timing.firstTokenAt) / 1000;
  usage.timeToFirstTokenMs = round(firstTokenMs);
  const prefill = last.timings?.prompt_per_second ?? (promptTokens && firstTokenMs > 0 ? promptTokens / (firstTokenMs / 1000) : undefined);
  if (prefill !== undefined) usage.prefillTokensPerSecond = round(prefill);
  const decode = last.timings?.predicted_per_second ?? (decodeSeconds > 0 && completionTokens > 1 ? (completionTokens - 1) / decodeSeconds : undefined);
  if (decode !== undefined) usage.decodeTokensPerSecond = round(decode);
  return usage;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
