import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';

/** The request checks and chunk shapes of WebLLM 0.2.86's chat completions, for the fake. */
export function checkMessages(request: ChatCompletionRequestStreaming) {
  const { messages } = request;
  const last = messages.at(-1);
  if (!last || (last.role !== 'user' && last.role !== 'tool')) {
    throw named('MessageOrderError', 'The last message should be from the `user` or `tool`.');
  }
  messages.forEach((message, index) => {
    if (message.role === 'system' && index !== 0) throw named('SystemMessageOrderError', 'System prompt should always be the first message.');
    if (message.role === 'tool' && /qwen/i.test(request.model ?? '')) throw named('UnsupportedRoleError', 'Unsupported role of message: tool');
  });
}

export function checkResponseFormat(request: ChatCompletionRequestStreaming) {
  const format = request.response_format;
  if (!format) return;
  if ((format.type === 'structural_tag') !== (format.structural_tag !== undefined)) {
    throw named('InvalidResponseFormatStructuralTagError', 'When ResponseFormat.type is `structural_tag`, ResponseFormat.structural_tag needs to be specified.');
  }
}

/**
 * xgrammar compiles the constraint when the reply starts; like it, this refuses a regular
 * expression with lookaround (which it does not support).
 */
export function checkGrammar(request: ChatCompletionRequestStreaming) {
  if (request.response_format?.type !== 'structural_tag') return;
  if (/"pattern":"[^"]*\(\?[=!<]/.test(JSON.stringify(request.response_format))) {
    throw named('GrammarMatcherInitError', 'Failed to initialize the grammar matcher for response format `structural_tag`: unsupported regex lookaround.');
  }
}

export function chunk(request: ChatCompletionRequestStreaming, delta: { role?: 'assistant'; content?: string }, finishReason: 'stop' | 'abort' | 'length' | null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: request.model ?? '',
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  } as ChatCompletionChunk;
}

export function usageChunk(request: ChatCompletionRequestStreaming, promptTokens: number, completionTokens: number, speeds: { prefillTokensPerSecond?: number; decodeTokensPerSecond?: number }): ChatCompletionChunk {
  const prefill = speeds.prefillTokensPerSecond ?? 400;
  const decode = speeds.decodeTokensPerSecond ?? 40;
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: request.model ?? '',
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      extra: {
        e2e_latency_s: promptTokens / prefill + completionTokens / decode,
        prefill_tokens_per_s: prefill,
        decode_tokens_per_s: decode,
        time_to_first_token_s: promptTokens / prefill,
        time_per_output_token_s: 1 / decode,
      },
    },
  } as ChatCompletionChunk;
}

export function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
