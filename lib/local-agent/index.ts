export { rankTools } from './rank-tools';
export { compactSchema } from './compact-schema';
export { validateArgs } from './validate-args';
export { parseToolCalls } from './parse-tool-calls';
export { createProseFilter } from './prose-filter';
export type { ProseFilter } from './prose-filter';
export type { CompactTool, ParsedCall, ParseResult, RankOptions, ToolScorer } from './types';
