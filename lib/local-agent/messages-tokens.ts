// The size of a run of messages, which both the prompt's fitting and the cuts of its history
// measure by, in a file of its own so that neither imports the other.
import type { ChatMessage } from '@webmcp-agents/chat';
import { estimateMessageTokens } from './estimate-tokens';

/** The estimated tokens of `messages`, frames included. */
export function messagesTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}
