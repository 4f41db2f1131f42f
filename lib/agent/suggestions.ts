import type { ToolDescriptor } from '@webmcp-agents/chat';
import { compactSchema, defaultInstructions, estimateTokens, hermesFormat, systemPromptRoom } from '@webmcp-agents/local-agent';
import { cutGraphemes } from '../text/cut-graphemes';
import { assumedContextTokens } from './fit-history';

/** How many requests the panel offers under an empty chat. */
const suggestionCount = 3;

/**
 * A few requests a person could start with, built from the page's tools: read-only tools first,
 * since trying them is harmless. "search_products" becomes "Search products". A tool too large to
 * be shown to the default model at all (a form listing ten thousand choices) is not offered: its
 * chip would lead to a request the model cannot do.
 */
export function suggestRequests(tools: readonly ToolDescriptor[]): string[] {
  const ordered = [
    ...tools.filter((tool) => tool.annotations?.readOnlyHint),
    ...tools.filter((tool) => !tool.annotations?.readOnlyHint && !tool.annotations?.consequentialHint),
  ];
  const suggestions = new Set<string>();
  for (const tool of ordered) {
    // Cut between characters as a reader sees them: a chip, and the box it fills, never ends in half an emoji or a flag.
    const phrase = cutGraphemes(tool.title?.trim() || humanize(tool.name), 60);
    if (phrase && !suggestions.has(phrase) && showable(tool, phrase)) suggestions.add(phrase);
    if (suggestions.size === suggestionCount) break;
  }
  return [...suggestions];
}

function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_.\-\s]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** Whether the tool, alone, fits the room the default model's context leaves the prompt's tools for this request. */
function showable(tool: ToolDescriptor, request: string): boolean {
  const shown = { name: tool.name, description: tool.description, parameters: compactSchema(tool.inputSchema) };
  return estimateTokens(hermesFormat.systemPrompt([shown], defaultInstructions)) <= systemPromptRoom(assumedContextTokens, request);
}
