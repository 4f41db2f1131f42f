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
  howToCall: (calls) => {
    const written = calls.map((call) => `${call.name}(${Object.entries(call.arguments).map(([key, value]) => `${key}=${pythonLiteral(value)}`).join(', ')})`);
    return `To call ${calls.length === 1 ? 'it' : 'them'}, write [${written.join(', ')}] between the tool call start and end tokens.`;
  },
};

/** A JSON value as Python writes it: JSON's own text but for `true`, `false` and `null`. */
function pythonLiteral(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`).join(', ')}}`;
  return JSON.stringify(value);
}
