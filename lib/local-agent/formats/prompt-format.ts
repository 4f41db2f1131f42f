import type { ChatMessage } from '@webmcp-agents/chat';
import type { CompactTool } from '../types';

export type PromptFormatId = 'hermes' | 'lfm2' | 'llama3-json' | 'prompt-api';

/** One tool's outcome as the model reads it on the next step: a result, or what to fix. */
export interface ToolReply {
  name: string;
  text: string;
  isError?: boolean;
}

/**
 * How one family of models is shown tools and given results. The loop keeps the system prompt
 * byte-identical while the shown tools do not change, so an engine can reuse its cached prefix.
 */
export interface PromptFormat {
  id: PromptFormatId;
  /** The system prompt: the instructions, then the tools in the model's own format. */
  systemPrompt(tools: readonly CompactTool[], instructions: string): string;
  /** The message that hands the step's tool results and errors back to the model. */
  toolRepliesMessage(replies: readonly ToolReply[]): ChatMessage;
}

/** One tool as compact JSON, keys in a fixed order so the same tool always gives the same bytes. */
export function toolJson(tool: CompactTool): string {
  return JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters });
}

export function errorPrefix(reply: ToolReply): string {
  return reply.isError ? 'Error: ' : '';
}
