import type { ChatMessage } from '@webmcp-agents/chat';

/** What a model is assumed to read at once when its engine does not say (WebLLM's builds, Ollama's default). */
export const assumedContextTokens = 4096;

// Earlier exchanges may take a quarter of the context: the system prompt, this request and the
// run's own tool results need the rest. English runs about 3.5 characters a token in these models.
const historyShare = 0.25;
const charactersPerToken = 3.5;

/**
 * The most recent exchanges of `history` that fit the model's context, whole exchanges (a request
 * with its answer), oldest dropped first. The last exchange alone may be too long: its answer is
 * then cut to the room, since what was just said matters most to the next request.
 */
export function fitHistory(history: readonly ChatMessage[], contextTokens = assumedContextTokens): ChatMessage[] {
  let room = Math.floor(contextTokens * historyShare * charactersPerToken);
  const kept: ChatMessage[] = [];
  for (let end = history.length; end > 0; ) {
    // An exchange: a user message and whatever followed it up to `end`.
    let start = end - 1;
    while (start > 0 && history[start]!.role !== 'user') start -= 1;
    const exchange = history.slice(start, end);
    const size = exchange.reduce((sum, message) => sum + message.content.length, 0);
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

const cutMark = ' … (cut)';

// Keeps the request whole and as much of the answer as fits; nothing if even the request does not.
function cutExchange(exchange: readonly ChatMessage[], room: number): ChatMessage[] {
  const [request, ...rest] = exchange;
  if (!request || request.content.length + cutMark.length >= room) return [];
  let left = room - request.content.length;
  const answer: ChatMessage[] = [];
  for (const message of rest) {
    if (left <= cutMark.length) break;
    const content = message.content.length <= left ? message.content : `${message.content.slice(0, left - cutMark.length)}${cutMark}`;
    answer.push({ ...message, content });
    left -= content.length;
  }
  return [request, ...answer];
}
