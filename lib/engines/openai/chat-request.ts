import type { ModelRequest } from '@webmcp-agents/local-agent';
import type { IdleTimer } from './reply-timeouts';
import { isObject } from './is-object';
import { readErrorBody } from './response-detail';
import { serverDown, serverRefused, serverStalled } from './server-errors';

export interface ChatRequestOptions {
  address: string;
  model: string;
  temperature: number;
  maxTokens: number;
  fetch: typeof fetch;
  memory: ServerMemory;
}

/** The fields of a chat request that a reply can do without, which a server may refuse. */
type OptionalField = 'stream_options' | 'chat_template_kwargs' | 'reasoning_effort';

/** What the server taught the engine, kept for as long as the engine lives. */
export interface ServerMemory {
  /**
   * The optional fields the server refused, by model: Ollama's `reasoning_effort` for a model that
   * cannot think, a strict server's arguments it does not know (OpenAI's own, a FastAPI app's 422).
   */
  refusedFields: Map<string, Set<OptionalField>>;
  /** Models whose thoughts come as text without their opening `<think>` (see `readUnopenedThought`). */
  opensThoughtInPrompt: Set<string>;
}

export function createServerMemory(): ServerMemory {
  return { refusedFields: new Map(), opensThoughtInPrompt: new Set() };
}

/** Qwen3 thinks before it answers unless told not to, as the WebLLM engine also knows. */
function thinksByDefault(model: string): boolean {
  return /qwen3/i.test(model);
}

/**
 * The optional fields a request to `model` sends: the reply's token counts (`stream_options`), and
 * for a model that thinks by default, thinking turned off the ways servers read it:
 * `chat_template_kwargs` (llama.cpp, vLLM, LM Studio) and `reasoning_effort` (Ollama). Less those
 * the server refused.
 */
function fieldsFor(model: string, refused: ReadonlySet<OptionalField>): Set<OptionalField> {
  const fields: OptionalField[] = ['stream_options', ...(thinksByDefault(model) ? (['chat_template_kwargs', 'reasoning_effort'] as const) : [])];
  return new Set(fields.filter((field) => !refused.has(field)));
}

/** The streamed chat completion request, with the optional fields `sent`. */
function chatRequestBody(request: ModelRequest, options: ChatRequestOptions, sent: ReadonlySet<OptionalField>) {
  return {
    model: options.model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    stream: true,
    ...(sent.has('stream_options') ? { stream_options: { include_usage: true } } : {}),
    temperature: options.temperature,
    max_tokens: options.maxTokens,
    ...(sent.has('chat_template_kwargs') ? { chat_template_kwargs: { enable_thinking: false } } : {}),
    ...(sent.has('reasoning_effort') ? { reasoning_effort: 'none' } : {}),
  };
}

/**
 * Posts the request and returns the streaming response. A server that refuses one of the optional
 * fields (HTTP 400 or 422 that names it) is asked once more without it, and it is not sent again.
 */
export async function postChatRequest(request: ModelRequest, options: ChatRequestOptions, timer: IdleTimer): Promise<Response> {
  const signal = AbortSignal.any([request.signal, timer.signal]);
  const { refusedFields } = options.memory;
  const refused = refusedFields.get(options.model) ?? new Set<OptionalField>();
  refusedFields.set(options.model, refused);
  // Each refusal takes a field away: at most one request more than there are fields.
  for (;;) {
    const sent = fieldsFor(options.model, refused);
    let response = await send(request, options, sent, signal, timer);
    if (response.status === 400 || response.status === 422) {
      // Read once, and kept for the refusal's words where it names no field to leave out.
      const text = await response.text().catch(() => '');
      const field = refusedField(text, sent, response.status);
      if (field !== undefined) {
        refused.add(field);
        continue;
      }
      response = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    if (!response.ok || !response.body) throw await serverRefused(options.address, response, options.model, options.maxTokens);
    return response;
  }
}

/**
 * The optional field a refusal is about, read from what it says is wrong, never from the request
 * it may quote back (a FastAPI app's 422 quotes the whole body): OpenAI's `param`, the place of a
 * FastAPI app's "extra" input, a field its message names, or `reasoning_effort` where a 400 speaks
 * of thinking or reasoning, as Ollama's does ("think value "none" is not supported for this model").
 */
function refusedField(text: string, sent: ReadonlySet<OptionalField>, status: number): OptionalField | undefined {
  const { words, error, body } = readErrorBody(text);
  const param = isObject(error) ? error['param'] : undefined;
  // A FastAPI app's inputs it calls extra, by name: its other entries may quote the whole request.
  const extra = Array.isArray(body.detail)
    ? body.detail.flatMap((entry) => (isObject(entry) && entry['type'] === 'extra_forbidden' && Array.isArray(entry['loc']) ? [String(entry['loc'].at(-1))] : []))
    : [];
  const named = [...sent].find((field) => field === param || extra.includes(field) || words.includes(field));
  if (named) return named;
  return status === 400 && sent.has('reasoning_effort') && /think|reason/i.test(words) ? 'reasoning_effort' : undefined;
}

async function send(
  request: ModelRequest,
  options: ChatRequestOptions,
  sent: ReadonlySet<OptionalField>,
  signal: AbortSignal,
  timer: IdleTimer,
): Promise<Response> {
  try {
    return await options.fetch(`${options.address}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(chatRequestBody(request, options, sent)),
      signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    if (timer.expired) throw serverStalled(options.address, timer.expired, timer.waitedMs);
    throw serverDown(options.address);
  }
}
