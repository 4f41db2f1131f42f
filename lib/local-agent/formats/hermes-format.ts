import type { CompactTool } from '../types';
import { functionJson, errorPrefix, type PromptFormat, type ToolReply } from './prompt-format';

/**
 * Qwen2.5 / Qwen3 / Hermes: tools as JSON lines inside `<tools>`, calls in `<tool_call>` tags,
 * results back as `<tool_response>` blocks in a user message (the templates have no tool role).
 * The wording follows Qwen's own chat template, which these models were trained on.
 */
export const hermesFormat: PromptFormat = {
  id: 'hermes',
  systemPrompt(tools: readonly CompactTool[], instructions: string): string {
    if (tools.length === 0) return instructions;
    const lines = tools.map(functionJson);
    return (
      `${instructions}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n` +
      `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n` +
      `${lines.join('\n')}\n</tools>\n\n` +
      `For each function call, return a json object with function name and arguments within ` +
      `<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>`
    );
  },
  toolRepliesMessage(replies: readonly ToolReply[]) {
    const blocks = replies.map((reply) => `<tool_response>\n${errorPrefix(reply)}${reply.text}\n</tool_response>`);
    return { role: 'user', content: blocks.join('\n') };
  },
  howToCall: (calls) => {
    const written = calls.map((call) => JSON.stringify({ name: call.name, arguments: call.arguments })).join(' and ');
    return calls.length === 1 ? `To call it, write ${written} between tool_call tags, as the system prompt shows.` : `To call them, write ${written}, each between tool_call tags, as the system prompt shows.`;
  },
};
