import type { ChatMessage } from '@webmcp-agents/chat';
import { cutToTokens, estimateMessageTokens, estimateTokens, messageFrameTokens } from '@webmcp-agents/local-agent';

/** What a model is assumed to read at once when its engine does not say (WebLLM's builds, Ollama's default). */
export const assumedContextTokens = 4096;

// Earlier exchanges may take a quarter of the context: the system prompt, this request and the
// run's own tool results need the rest.
const historyShare = 0.25;

/**
 * The most recent exchanges of `history` that fit a quarter of the model's context (as
 * `estimateMessageTokens` counts), whole exchanges (a request with its answer), oldest dropped first.
 * The last exchange alone may be too long: its answer is then cut to the room, since what was
 * just said matters most to the next request.
 */
export function fitHistory(history: readonly ChatMessage[], contextTokens = assumedContextTokens): ChatMessage[] {
  let room = Math.floor(contextTokens * historyShare);
  const kept: ChatMessage[] = [];
  for (let end = history.length; end > 0; ) {
    // An exchange: a user message and whatever followed it up to `end`.
    let start = end - 1;
    while (start > 0 && history[start]!.role !== 'user') start -= 1;
    const exchange = history.slice(start, end);
    const size = exchange.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
    if (size > room) {
      if (kept.length === 0) kept.push(...cutExchange(exchange, room));
      break;
    }
    room -= size;
    kept.unshift(...exchange);
    end = start;
  }
  return kept;
}

/** Whether `history` fits the share of the model's context earlier exchanges may take, whole. */
export function fitsHistoryShare(history: readonly ChatMessage[], contextTokens = assumedContextTokens): boolean {
  return history.reduce((sum, message) => sum + estimateMessageTokens(message), 0) <= Math.floor(contextTokens * historyShare);
}

const cutMark = ' … (cut)';
const cutMarkTokens = estimateTokens(cutMark);

// Keeps the request whole and as much of the answer as fits; nothing if even the request does not.
function cutExchange(exchange: readonly ChatMessage[], room: number): ChatMessage[] {
  const [request, ...rest] = exchange;
  if (!request || estimateMessageTokens(request) + messageFrameTokens + cutMarkTokens >= room) return [];
  let left = room - estimateMessageTokens(request);
  const answer: ChatMessage[] = [];
  for (const message of rest) {
    if (left <= messageFrameTokens + cutMarkTokens) break;
    const tokens = estimateMessageTokens(message);
    const content = tokens <= left ? message.content : `${cutToTokens(message.content, left - messageFrameTokens - cutMarkTokens)}${cutMark}`;
    answer.push({ ...message, content });
    left -= estimateTokens(content) + messageFrameTokens;
  }
  return [request, ...answer];
}
