import type { ToolDescriptor } from '@webmcp-agents/chat';
import { compactSchema } from './compact-schema';
import { cutText } from './cut-text';
import type { CompactTool, RankOptions } from './types';
import { wordOverlapScorer } from './word-overlap-scorer';

/** Longest tool description shown to the model. */
export const descriptionLimit = 400;

const defaultMax = 8;

/**
 * At most `max` tools, the ones most like the request first, as a small model is shown them:
 * descriptions cut to 400 characters, schemas through `compactSchema`. Ties keep the original
 * order; with `max` or fewer tools all of them come back in their original order.
 */
export function rankTools(
  tools: readonly ToolDescriptor[],
  query: string,
  options?: RankOptions,
): CompactTool[] {
  return rankToolsWithScores(tools, query, options).map((ranked) => ranked.tool);
}

/** The same ranking as `rankTools`, with each tool's score (for traces and the inspector). */
export function rankToolsWithScores(
  tools: readonly ToolDescriptor[],
  query: string,
  options: RankOptions = {},
): Array<{ tool: CompactTool; score: number }> {
  return rankScoredTools(tools, scoreTools(tools, query, options), options.max);
}

/**
 * Every tool's score for `query`, in the page's order, as `rankToolsWithScores` ranks them. A run
 * scores once and ranks with `rankScoredTools`, so its trace can give the scores of the tools left out.
 */
export function scoreTools(tools: readonly ToolDescriptor[], query: string, options: Omit<RankOptions, 'max'> = {}): number[] {
  const scorer = options.scorer ?? wordOverlapScorer;
  const rawScores = scorer(tools, query, options.recent ?? []);
  return tools.map((_, index) => readScore(rawScores[index]));
}

/** `rankToolsWithScores` for tools already scored (`scores` from `scoreTools`). */
export function rankScoredTools(
  tools: readonly ToolDescriptor[],
  scores: readonly number[],
  maxTools?: number,
): Array<{ tool: CompactTool; score: number }> {
  const max = resolveMax(maxTools);
  const order = tools.length <= max ? tools.map((_, index) => index) : topIndexes(scores, max);
  return order.map((index) => ({ tool: compactTool(tools[index]!), score: scores[index]! }));
}

/** The indexes of the `count` best scores, best first; among equals the earlier tool first. */
export function topIndexes(scores: readonly number[], count: number): number[] {
  const indexes = scores.map((_, index) => index);
  indexes.sort((left, right) => {
    const difference = scores[right]! - scores[left]!;
    // Infinity − Infinity is NaN: equal infinite scores are a tie too.
    return difference > 0 || difference < 0 ? difference : left - right;
  });
  return indexes.slice(0, count);
}

// A missing or NaN score (a custom scorer's slip) ranks as 0 rather than scrambling the sort.
function readScore(score: number | undefined): number {
  return typeof score === 'number' && !Number.isNaN(score) ? score : 0;
}

// `max` is a count: fractions round down, negatives give nothing, anything unreadable the default.
function resolveMax(max: number | undefined): number {
  if (typeof max !== 'number' || Number.isNaN(max)) return defaultMax;
  return Math.max(0, Math.floor(max));
}

interface CachedCompactTool {
  name: unknown;
  description: unknown;
  inputSchema: unknown;
  compact: CompactTool;
}

// Compacting is the other repeated cost; the fields are compared so an edited tool is redone.
const compactByTool = new WeakMap<ToolDescriptor, CachedCompactTool>();

function compactTool(tool: ToolDescriptor): CompactTool {
  const cached = compactByTool.get(tool);
  const fresh =
    cached !== undefined &&
    cached.name === tool.name &&
    cached.description === tool.description &&
    cached.inputSchema === tool.inputSchema;
  const compact = fresh ? cached.compact : compactAndRemember(tool);
  // A new outer object each time; `parameters` is shared between rankings and read-only.
  return { name: compact.name, description: compact.description, parameters: compact.parameters };
}

function compactAndRemember(tool: ToolDescriptor): CompactTool {
  const compact: CompactTool = {
    name: typeof tool.name === 'string' ? tool.name : '',
    description: typeof tool.description === 'string' ? cutText(tool.description, descriptionLimit) : '',
    parameters: compactSchema(tool.inputSchema),
  };
  compactByTool.set(tool, {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    compact,
  });
  return compact;
}
