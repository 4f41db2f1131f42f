/**
 * A message of the conversation as a chat-completion engine takes it. Tool results travel in
 * `user` messages because the small models' templates (Qwen in WebLLM) have no `tool` role.
 */
export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}
