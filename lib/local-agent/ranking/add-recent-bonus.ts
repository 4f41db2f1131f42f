import type { ToolDescriptor } from '@webmcp-agents/chat';

/**
 * Raises the tools named in `recent` by a share of the best score of the list (or by the share
 * itself when nothing matched), so a follow-up like "and another one" keeps the tool in view
 * without burying a tool the request clearly names.
 */
export function addRecentBonus(
  tools: readonly ToolDescriptor[],
  scores: number[],
  recent: readonly string[],
  share: number,
): void {
  if (!Array.isArray(recent) || recent.length === 0 || share <= 0) return;
  const recentNames = new Set(recent);
  let best = 0;
  for (const score of scores) if (score > best) best = score;
  const bonus = best > 0 ? best * share : share;
  tools.forEach((tool, position) => {
    const name: unknown = typeof tool === 'object' && tool !== null ? tool.name : undefined;
    if (typeof name === 'string' && recentNames.has(name)) scores[position]! += bonus;
  });
}
