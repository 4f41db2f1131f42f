// A request longer than the model reads at once fails as "this conversation no longer fits", whose
// advice (a new chat, shorter tool output) cannot help: the person is told the request is the cause.
import { estimateTokens, type RunLocalAgentResult } from '@webmcp-agents/local-agent';
import { assumedContextTokens } from './fit-history';

/**
 * The run's result, its error reworded where the model's context filled up and the request alone
 * takes over half of it. The prompt keeps the request whole; the history gets at most a quarter
 * and the reply a quarter, so whatever the run drops, too little room is left beside such a request.
 * `contextTokens`: the model's context where the engine knows it; the error's own figure comes
 * first, and where neither is known the message names none (the assumed one may be far off).
 */
export function withRequestTooLong(result: RunLocalAgentResult, request: string, contextTokens: number | undefined): RunLocalAgentResult {
  const { error } = result;
  if (error?.code !== 'context-full') return result;
  const known = error.contextTokens ?? contextTokens;
  const requestTokens = estimateTokens(request);
  if (requestTokens <= (known ?? assumedContextTokens) / 2) return result;
  const about = (Math.round(requestTokens / 100) * 100).toLocaleString('en-US');
  const ofContext = known === undefined ? '' : ` of the ${known.toLocaleString('en-US')} it reads at once`;
  return {
    ...result,
    error: {
      ...error,
      message: `Your request is too long for this model, about ${about} tokens${ofContext}.`,
      hint: 'Shorten it, or pick a model with more context in the options.',
    },
  };
}
