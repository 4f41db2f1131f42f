// Which error a reply that the server stopped with `length` is, from the figures it sent.
import { contextFull, longerReply, replyCutOff, thinkingCutOff, type EngineError } from '../engine';
import { serverModelLabel } from './server-errors';
import type { ServerFigures } from './server-usage';

/** What the reply was asked with: where, of which model, how long, in what context. */
export interface LengthLimits {
  address: string;
  model: string;
  maxTokens: number;
  contextTokens: number | undefined;
  /** The person's "Longest reply", for what the hint offers (see longerReply). */
  replyTokens?: number;
}

/**
 * A reply that stopped with `length`: at the `max_tokens` sent, at a cap of the server's own, or
 * where the model's context filled up as it wrote (llama.cpp without context shift), which a
 * shorter prompt mends: the agent fits the prompt again for `context-full`, as for WebLLM's. Only
 * a server that said its context (llama.cpp, Ollama and LM Studio do) tells the last apart: its
 * reply's figures reach that context. `onlyThoughts`: the model wrote nothing but its thoughts.
 */
export function lengthError(figures: ServerFigures, { address, model, maxTokens, contextTokens, replyTokens }: LengthLimits, onlyThoughts: boolean): EngineError {
  const written = figures.usage?.completion_tokens ?? figures.timings?.predicted_n;
  const prompt = figures.usage?.prompt_tokens ?? figures.timings?.prompt_n;
  const filled = contextTokens !== undefined && written !== undefined && prompt !== undefined && prompt + written >= contextTokens - contextSlackTokens;
  if (filled) return contextFull(serverModelLabel(address, model), contextTokens);
  const longer = longerReply(replyTokens, contextTokens);
  if (onlyThoughts) return thinkingCutOff(longer);
  return written === maxTokens ? replyCutOff(`${maxTokens.toLocaleString('en-US')} tokens`, false, longer) : replyCutOff("the server's length limit or the end of the model's context", true);
}

/** Tokens a server may keep back from a full context (a start-of-text token, a reserved few). */
const contextSlackTokens = 16;
