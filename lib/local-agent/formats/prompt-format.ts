import type { ChatMessage } from '@webmcp-agents/chat';
import { inertMarkup } from '../tool-output-text';
import type { CompactTool, ParseResult, ParsedCall } from '../types';

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
  /**
   * Reads a reply for calls, where the format knows better than `parseToolCalls` alone (a model
   * whose every call comes in one shape). Default: `parseToolCalls`.
   */
  parseReply?(raw: string, toolNames: ReadonlySet<string>): ParseResult;
  /**
   * How to write these calls in this format, for a model that wrote them as code (see
   * withCallsWrittenAsCode): in words where the format's markup would be, since markup in what
   * the model reads is made inert (see inertMarkup), and a model may copy it so.
   */
  howToCall?(calls: readonly ParsedCall[]): string;
}

/**
 * One tool as compact JSON, keys in a fixed order so the same tool always gives the same bytes.
 * The page wrote its description: markup in it is made inert (see inertMarkup).
 */
export function toolJson(tool: CompactTool): string {
  return inertMarkup(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

/** The OpenAI-style definition Hermes and Llama 3 templates show, made inert like toolJson. */
export function functionJson(tool: CompactTool): string {
  return inertMarkup(JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

export function errorPrefix(reply: ToolReply): string {
  return reply.isError ? 'Error: ' : '';
}
