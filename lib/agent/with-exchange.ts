import type { ChatMessage } from '@webmcp-agents/chat';

/**
 * Previous exchanges the model sees again (a request, and its answer or the note of how it ended):
 * requests and answers only, which keeps the prompt short.
 */
const historyTurns = 6;

/** The history with one more exchange; the oldest give way past `historyTurns`. */
export function withExchange(history: readonly ChatMessage[], request: string, reply: ChatMessage): ChatMessage[] {
  return [...history, { role: 'user' as const, content: request }, reply].slice(-historyTurns * 2);
}
