// A request longer than the model reads at once fails as "this conversation no longer fits", whose
// advice (a new chat, shorter tool output) cannot help: the person is told the request is the cause.
import { estimateTokens, type RunLocalAgentResult } from '@webmcp-agents/local-agent';

/**
 * The run's result, its error reworded where the model's context filled up and the request alone
 * takes over half of it. The prompt keeps the request whole; the history gets at most a quarter
 * and the reply a quarter, so whatever the run drops, too little room is left beside such a request.
 */
export function withRequestTooLong(result: RunLocalAgentResult, request: string, contextTokens: number): RunLocalAgentResult {
  const { error } = result;
  if (error?.code !== 'context-full') return result;
  const requestTokens = estimateTokens(request);
  if (requestTokens <= contextTokens / 2) return result;
  const about = (Math.round(requestTokens / 100) * 100).toLocaleString('en-US');
  return {
    ...result,
    error: {
      ...error,
      message: `Your request is too long for this model, about ${about} tokens of the ${contextTokens.toLocaleString('en-US')} it reads at once.`,
      hint: 'Shorten it, or pick a model with more context in the options.',
    },
  };
}
