import type { ToolOutput } from '@webmcp-agents/chat';
import { readMcpResult } from '../webmcp/read-mcp-result';

/**
 * A page's result as text for the model: an MCP-style `{content: [{type: 'text', text}]}` becomes
 * its joined text (and `isError` is kept); any other string stays as the page gave it; `null`
 * means the calling document went away before the tool answered (`noAnswerOutput`). `fullLength`: the length of the
 * result (an MCP result's text) before the content script cut it, where it did.
 */
export function toolOutputFromResult(name: string, result: string | null, fullLength?: number): ToolOutput {
  return toolRunFromResult(name, result, fullLength).output;
}

/** What a run gave: the output the model reads, and an MCP-style result's `structuredContent`, which only the inspector reads. */
export interface ToolRun {
  output: ToolOutput;
  structuredContent?: unknown;
  /** The result had a `structuredContent`, left out because the whole was too long to carry. */
  structuredContentDropped?: true;
}

/**
 * `toolOutputFromResult`, with the result's `structuredContent` beside the output where it has one,
 * or `structuredContentDropped` where the content script left it out.
 */
export function toolRunFromResult(name: string, result: string | null, fullLength?: number, structuredContentDropped?: boolean, frameId = 0): ToolRun {
  if (result === null) return { output: noAnswerOutput(name, frameId) };
  const mcp = readMcpResult(result);
  const output: ToolOutput = mcp ? { text: mcp.text, ...(mcp.isError ? { isError: true } : {}) } : { text: result };
  const structured = mcp?.structuredContent !== undefined ? { structuredContent: mcp.structuredContent } : {};
  const dropped = mcp && structuredContentDropped ? { structuredContentDropped: true as const } : {};
  return { output: fullLength !== undefined && fullLength > output.text.length ? { ...output, fullLength } : output, ...structured, ...dropped };
}

/**
 * What a call gives whose document went before it answered. The browser answers `null` however
 * the document went (a form that posts, a script, the person's reload), so the words blame no
 * one; they name the frame where the tool was in one (`frameId` other than 0), which may also
 * have been removed.
 */
export function noAnswerOutput(name: string, frameId = 0): ToolOutput {
  const went = frameId === 0 ? `The page navigated or reloaded while the tool "${name}" ran` : `The frame that offered "${name}" navigated, reloaded or was removed while it ran`;
  return { text: `${went}, so no result came back. The tool may have done it (a form that posts does).`, noAnswer: true };
}
