import { parseToolCalls } from '../parse-tool-calls';
import type { CompactTool } from '../types';
import { errorPrefix, toolJson, type PromptFormat, type ToolReply } from './prompt-format';

/**
 * Chrome's built-in model (the Prompt API): every reply is one JSON envelope, constrained by a
 * `responseConstraint` schema, either a tool call or a message for the person.
 */
export const promptApiFormat: PromptFormat = {
  id: 'prompt-api',
  systemPrompt(tools: readonly CompactTool[], instructions: string): string {
    const toolLines = tools.length ? tools.map(toolJson).join('\n') : '(none)';
    return (
      `${instructions}\n\nReply with exactly one JSON object and nothing else. To use a tool: ` +
      `{"type": "tool_call", "name": "<tool name>", "arguments": {…}}. To answer the person: ` +
      `{"type": "message", "text": "<your answer>"}.\n\nTools:\n${toolLines}`
    );
  },
  toolRepliesMessage(replies: readonly ToolReply[]) {
    const blocks = replies.map((reply) => `Result of ${reply.name}: ${errorPrefix(reply)}${reply.text}`);
    return { role: 'user', content: blocks.join('\n\n') };
  },
  howToCall: ([call]) => `To call ${call!.name}, reply with only ${JSON.stringify({ type: 'tool_call', name: call!.name, arguments: call!.arguments })}.`,
  // A call only ever comes as the `tool_call` envelope, which the engine turns into one tag block.
  // A message is prose, whatever it shows: a JSON example in an answer must not run a tool.
  parseReply(raw, toolNames) {
    if (callBlock.test(raw)) return parseToolCalls(raw, toolNames);
    return { text: raw.trim(), calls: [], errors: [] };
  },
};

const callBlock = /^<tool_call>\n\{[\s\S]*\}\n<\/tool_call>$/;

/** The JSON schema of the envelope, for the Prompt API's `responseConstraint`. */
export const promptApiEnvelopeSchema = {
  anyOf: [
    {
      type: 'object',
      properties: { type: { const: 'tool_call' }, name: { type: 'string' }, arguments: { type: 'object' } },
      required: ['type', 'name', 'arguments'],
    },
    {
      type: 'object',
      properties: { type: { const: 'message' }, text: { type: 'string' } },
      required: ['type', 'text'],
    },
  ],
} as const;
