import type { JSONSchema, ToolDescriptor } from '@webmcp-agents/chat';

/** A tool as a small model is shown it: short description, compacted schema. */
export interface CompactTool {
  name: string;
  description: string;
  parameters: JSONSchema;
}

/** A call read out of a model's reply. */
export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What `parseToolCalls` found in a reply. */
export interface ParseResult {
  /** The prose, with call markup and `<think>…</think>` removed. */
  text: string;
  /** The valid calls, in the order the model wrote them. */
  calls: ParsedCall[];
  /** Messages for calls it got wrong, to feed back to the model. */
  errors: string[];
}

/**
 * Scores every tool against a query, higher meaning more relevant: one number per tool, in the
 * order of `tools`. A scorer may cache what it derives from a tool list between calls.
 */
export type ToolScorer = (
  tools: readonly ToolDescriptor[],
  query: string,
  recent: readonly string[],
) => number[];

/** The options of `rankTools`. */
export interface RankOptions {
  /** Most tools returned. Default 8. */
  max?: number;
  /** Names of tools used recently, which get a bonus. */
  recent?: readonly string[];
  /** How tools are scored. Default: the documented word-overlap scorer. */
  scorer?: ToolScorer;
}
