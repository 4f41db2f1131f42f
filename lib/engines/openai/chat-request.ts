import type { ModelRequest } from '@webmcp-agents/local-agent';
import type { IdleTimer } from './reply-timeouts';
import { serverDown, serverRefused, serverStalled } from './server-errors';

export interface ChatRequestOptions {
  address: string;
  model: string;
  temperature: number;
  maxTokens: number;
  fetch: typeof fetch;
  memory: ServerMemory;
}

/** What the server taught the engine, kept for as long as the engine lives. */
export interface ServerMemory {
  /** Models the server refused `reasoning_effort` for (Ollama, for a model that cannot think). */
  refusesReasoningEffort: Set<string>;
  /** Models whose thoughts come as text without their opening `<think>` (see `readUnopenedThought`). */
  opensThoughtInPrompt: Set<string>;
}

export function createServerMemory(): ServerMemory {
  return { refusesReasoningEffort: new Set(), opensThoughtInPrompt: new Set() };
}

/** Qwen3 thinks before it answers unless told not to, as the WebLLM engine also knows. */
function thinksByDefault(model: string): boolean {
  return /qwen3/i.test(model);
}

/**
 * The streamed chat completion request. Thinking is turned off the ways servers read it:
 * `chat_template_kwargs` (llama.cpp, vLLM, LM Studio) and `reasoning_effort` (Ollama).
 */
function chatRequestBody(request: ModelRequest, options: ChatRequestOptions, withReasoningEffort: boolean) {
  const thinkingOff = thinksByDefault(options.model)
    ? { chat_template_kwargs: { enable_thinking: false }, ...(withReasoningEffort ? { reasoning_effort: 'none' } : {}) }
    : {};
  return {
    model: options.model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    stream: true,
    stream_options: { include_usage: true },
    temperature: options.temperature,
    max_tokens: options.maxTokens,
    ...thinkingOff,
  };
}

/**
 * Posts the request and returns the streaming response. A server that refuses `reasoning_effort`
 * (HTTP 400 that speaks of thinking or reasoning) is asked once more without it, and not again.
 */
export async function postChatRequest(request: ModelRequest, options: ChatRequestOptions, timer: IdleTimer): Promise<Response> {
  const signal = AbortSignal.any([request.signal, timer.signal]);
  const withEffort = thinksByDefault(options.model) && !options.memory.refusesReasoningEffort.has(options.model);
  let response = await send(request, options, withEffort, signal, timer);
  if (withEffort && response.status === 400 && (await speaksOfThinking(response.clone()))) {
    options.memory.refusesReasoningEffort.add(options.model);
    await response.body?.cancel().catch(() => {});
    response = await send(request, options, false, signal, timer);
  }
  if (!response.ok || !response.body) throw await serverRefused(options.address, response, options.model, options.maxTokens);
  return response;
}

async function send(
  request: ModelRequest,
  options: ChatRequestOptions,
  withEffort: boolean,
  signal: AbortSignal,
  timer: IdleTimer,
): Promise<Response> {
  try {
    return await options.fetch(`${options.address}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(chatRequestBody(request, options, withEffort)),
      signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    if (timer.expired) throw serverStalled(options.address, timer.expired, timer.waitedMs);
    throw serverDown(options.address);
  }
}

async function speaksOfThinking(response: Response): Promise<boolean> {
  return /think|reason/i.test(await response.text().catch(() => ''));
}
