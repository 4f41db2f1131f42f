import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { NotShownTool } from './agent-events';
import { topIndexes } from './rank-tools';

/** Most tools a step names as not shown: on a page of 500 tools the list would fill every step of a trace. */
export const notShownLimit = 50;

/**
 * The page's tools the model was not shown at a step (those the ranking left out, and those the
 * context had no room for), with how many there are and the best `notShownLimit` of them by score,
 * the earlier of equals first. `scores` are the tools' own, in the page's order (see scoreTools).
 */
export function toolsNotShown(
  tools: readonly ToolDescriptor[],
  scores: readonly number[],
  shownNames: ReadonlySet<string>,
): { notShownCount: number; notShown: NotShownTool[] } {
  const left = tools.flatMap((tool, index) => (shownNames.has(tool.name) ? [] : [index]));
  const best = topIndexes(left.map((index) => scores[index]!), notShownLimit);
  const notShown = best.map((at) => {
    const { name } = tools[left[at]!]!;
    // A name that is not text reads as empty, as the prompt shows it (see compactTool).
    return { name: typeof name === 'string' ? name : '', score: scores[left[at]!]! };
  });
  return { notShownCount: left.length, notShown };
}
