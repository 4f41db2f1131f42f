import type { ChatMessage } from '@webmcp-agents/chat';
import type { CompactTool } from './types';

/** Speed and size figures an engine reports for one reply; every field is optional. */
export interface ModelUsage {
  promptTokens?: number;
  completionTokens?: number;
  timeToFirstTokenMs?: number;
  prefillTokensPerSecond?: number;
  decodeTokensPerSecond?: number;
}

/**
 * A piece of the reply, the reply's figures, or a piece of the model's thoughts sent apart from its
 * reply (a server that streams reasoning on its own): never text of the reply, nor read back to the
 * model, but kept with its step for the trace (`text`, where the engine has the words). An empty
 * piece of text says that more of the reply came which the engine holds until the reply ends (a
 * server's pieces of a call): nothing to read yet, but the reply goes on, and the model is writing.
 */
export type ModelChunk = { type: 'text-delta'; text: string } | { type: 'usage'; usage: ModelUsage } | { type: 'thinking'; text?: string };

export interface ModelRequest {
  messages: readonly ChatMessage[];
  /** The tools shown this step, for engines that constrain decoding to their schemas. */
  tools: readonly CompactTool[];
  signal: AbortSignal;
  /**
   * The most tokens the reply may take (runLocalAgent's `replyTokens`); the engine's own limit
   * where absent. A reply that reaches it fails with `'reply-cut-off'`.
   */
  maxTokens?: number;
}

/**
 * The one interface every engine implements (WebLLM, the Prompt API, a local server, replay).
 * The stream ends when the reply is complete; it stops early when `signal` aborts: on the run's
 * Stop, once the reply has gone past the model's own turn (a tool result it made up), and once it
 * has written the same call a fourth time in a row (see streamReply), where the reply is read on
 * until the stream ends, so the engine should end it soon. A prompt longer than the model's
 * context fails with an error whose `code` is `'context-full'` (and whose `contextTokens` is the
 * model's context, where the engine knows it): runLocalAgent then fits the prompt again to less.
 * A reply that reaches the engine's length limit fails with an error whose `code` is
 * `'reply-cut-off'`: one that wrote the same calls over until then, to that limit or to the end of
 * the context, was looping (see streamReply).
 */
export interface LanguageModel {
  stream(request: ModelRequest): AsyncIterable<ModelChunk>;
}
