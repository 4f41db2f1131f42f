import type { CompactTool } from '../types';
import { functionJson, errorPrefix, type PromptFormat, type ToolReply } from './prompt-format';

/**
 * Llama 3.2 1B/3B, JSON-based tool calling as Meta documents it: the model answers with
 * `{"name": …, "parameters": {…}}` (parseToolCalls reads `parameters` when `arguments` is missing).
 */
export const llama3JsonFormat: PromptFormat = {
  id: 'llama3-json',
  systemPrompt(tools: readonly CompactTool[], instructions: string): string {
    if (tools.length === 0) return instructions;
    const definitions = tools.map(functionJson);
    return (
      `${instructions}\n\nYou have access to the following functions. To call a function, respond ` +
      `with only a JSON object in the format {"name": function name, "parameters": dictionary of ` +
      `argument name and its value}. Do not use variables. If no function fits, answer in plain text.\n\n` +
      definitions.join('\n')
    );
  },
  toolRepliesMessage(replies: readonly ToolReply[]) {
    const blocks = replies.map((reply) => `Output of ${reply.name}: ${errorPrefix(reply)}${reply.text}`);
    return { role: 'user', content: blocks.join('\n\n') };
  },
  howToCall: ([call]) => `To call ${call!.name}, respond with only ${JSON.stringify({ name: call!.name, parameters: call!.arguments })}.`,
};
