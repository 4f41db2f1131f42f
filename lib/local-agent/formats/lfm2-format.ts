import type { CompactTool } from '../types';
import { errorPrefix, toolJson, type PromptFormat, type ToolReply } from './prompt-format';

/**
 * Liquid LFM2: a JSON tool list between `<|tool_list_start|>` and `<|tool_list_end|>`, pythonic
 * calls `<|tool_call_start|>[fn(a=1)]<|tool_call_end|>`, results between the response tokens.
 */
export const lfm2Format: PromptFormat = {
  id: 'lfm2',
  systemPrompt(tools: readonly CompactTool[], instructions: string): string {
    if (tools.length === 0) return instructions;
    return `${instructions}\nList of tools: <|tool_list_start|>[${tools.map(toolJson).join(', ')}]<|tool_list_end|>`;
  },
  toolRepliesMessage(replies: readonly ToolReply[]) {
    const blocks = replies.map(
      (reply) => `<|tool_response_start|>${errorPrefix(reply)}${reply.text}<|tool_response_end|>`,
    );
    return { role: 'user', content: blocks.join('\n') };
  },
};
