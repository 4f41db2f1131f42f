import type { ToolDescriptor } from '@webmcp-agents/chat';
import { cutText } from '../local-agent/cut-text';

/**
 * A few requests a person could start with, built from the page's tools: read-only tools first,
 * since trying them is harmless. "search_products" becomes "Search products".
 */
export function suggestRequests(tools: readonly ToolDescriptor[], count = 3): string[] {
  const ordered = [
    ...tools.filter((tool) => tool.annotations?.readOnlyHint),
    ...tools.filter((tool) => !tool.annotations?.readOnlyHint && !tool.annotations?.consequentialHint),
  ];
  const suggestions = new Set<string>();
  for (const tool of ordered) {
    // Cut whole characters: a chip, and the box it fills, never ends in half an emoji.
    const phrase = cutText(tool.title?.trim() || humanize(tool.name), 60);
    if (phrase) suggestions.add(phrase);
    if (suggestions.size === count) break;
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
