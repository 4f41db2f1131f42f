// The engine words a full context "this conversation no longer fits: start a new chat…". Three
// requests are told otherwise, since that advice cannot help them: one that alone fills the
// context, one that does not fit even without earlier messages (the first of a chat, the first
// on another site, or one whose earlier exchange was too long to keep), and one without earlier
// messages whose tools' results filled it.
import type { ChatMessage } from '@webmcp-agents/chat';
import { estimateTokens, type RunLocalAgentResult } from '@webmcp-agents/local-agent';
import { replyTokensRange, type EngineId } from '../engines/engine';
import { assumedContextTokens } from './fit-history';

/** What the run knew of its request: the words, what the model read of the chat before it, and the engine. */
export interface ContextOfRequest {
  request: string;
  history: readonly ChatMessage[];
  /** The model's context where the engine knows it; the error's own figure comes first. */
  contextTokens: number | undefined;
  engineId: EngineId;
  /** The settings' "Longest reply": the prompt keeps room for it, up to half the context (see replyRoom). */
  replyTokens?: number;
}

/**
 * The run's result, its error reworded where the model's context filled up and either the request
 * alone takes over half of it (`tooLong`: the prompt keeps the request whole, the history gets at
 * most a quarter and the reply its room, up to half (see replyRoom), so whatever the run drops,
 * too little room is left beside it), or the chat had nothing before it: then the page's tools and
 * the instructions left no room, and with no tool run yet a new chat or shorter tool output would
 * not help. Where neither the engine nor the error knows the context, the words name none (the
 * assumed one may be far off). Against a server's own limit on the prompt alone, only a request
 * that takes over half of it is told otherwise.
 */
export function withContextFullWords(result: RunLocalAgentResult, { request, history, contextTokens, engineId, replyTokens }: ContextOfRequest): { result: RunLocalAgentResult; tooLong: boolean } {
  const { error } = result;
  if (error?.code !== 'context-full') return { result, tooLong: false };
  const requestTokens = estimateTokens(request);
  // A server's limit on the prompt alone is its own setting, which its words name: no larger context
  // raises it, and only a request that takes most of it is told otherwise.
  if (error.promptLimit !== undefined) {
    if (requestTokens <= error.promptLimit / 2) return { result, tooLong: false };
    const reworded = {
      ...error,
      message: `Your request is too long for this server, about ${roundedTokens(requestTokens)} tokens of the ${error.promptLimit.toLocaleString('en-US')} it takes in a prompt.`,
      hint: 'Shorten it, or start the server with a higher limit on the prompt (Text Generation Inference: --max-input-tokens).',
    };
    return { result: { ...result, error: reworded }, tooLong: true };
  }
  const known = error.contextTokens ?? contextTokens;
  const moreContext = moreContextFor(engineId, known);
  if (requestTokens > (known ?? assumedContextTokens) / 2) {
    const ofContext = known === undefined ? '' : ` of the ${known.toLocaleString('en-US')} it reads at once`;
    const reworded = { ...error, message: `Your request is too long for this model, about ${roundedTokens(requestTokens)} tokens${ofContext}.`, hint: `Shorten it, or ${moreContext}` };
    return { result: { ...result, error: reworded }, tooLong: true };
  }
  if (history.length > 0) return { result, tooLong: false };
  const context = known === undefined ? 'the context' : `the ${known.toLocaleString('en-US')}-token context`;
  // A later step's prompt holds what the tools gave: there, shorter tool output helps, and a new chat would not.
  if (result.steps > 1) {
    const reworded = {
      ...error,
      message: `What the page's tools returned does not fit in ${context} of this model, beside the page's tools and the agent's instructions.`,
      hint: `Lower "Characters of a tool's output the model reads", or ${moreContext}`,
    };
    return { result: { ...result, error: reworded }, tooLong: false };
  }
  // The room the prompt keeps for the reply, where a lower "Longest reply" can give some of it back.
  const replyRoom = known === undefined || replyTokens === undefined ? undefined : Math.min(replyTokens, Math.floor(known / 2));
  const lowerReply = replyRoom !== undefined && replyRoom > replyTokensRange.min ? `lower "Longest reply" in the options (the prompt keeps ${replyRoom.toLocaleString('en-US')} tokens of the context for the reply), or ` : '';
  const reworded = {
    ...error,
    message: `Even with nothing before it, this request does not fit in ${context} of this model: the page's tools and the agent's instructions take most of it.`,
    hint: `Give it more room: ${lowerReply}${moreContext}`,
  };
  return { result: { ...result, error: reworded }, tooLong: false };
}

function roundedTokens(tokens: number): string {
  return (Math.round(tokens / 100) * 100).toLocaleString('en-US');
}

/**
 * How the model gets more context: a server's model may be run with a larger one than it was
 * started with, twice the one it has where that is known.
 */
function moreContextFor(engineId: EngineId, contextTokens: number | undefined): string {
  if (engineId !== 'openai') return 'pick a model with more context in the options.';
  const larger = contextTokens === undefined ? 8192 : Math.max(8192, contextTokens * 2);
  return `run the model with a larger context on your server (llama.cpp: llama-server -c ${larger}; Ollama: OLLAMA_CONTEXT_LENGTH=${larger}; LM Studio: its context length when loading the model), or pick a model with more context in the options.`;
}
