import type { ToolOutput } from '@webmcp-agents/chat';
import { readMcpResult } from '../webmcp/read-mcp-result';

/**
 * A page's result as text for the model: an MCP-style `{content: [{type: 'text', text}]}` becomes
 * its joined text (and `isError` is kept); any other string stays as the page gave it; `null`
 * means the call navigated the page.
 */
export function toolOutputFromResult(name: string, result: string | null): ToolOutput {
  if (result === null) {
    return { text: `The tool "${name}" navigated the page to a new document; it gave no other result.` };
  }
  const mcp = readMcpResult(result);
  if (!mcp) return { text: result };
  return { text: mcp.text, ...(mcp.isError ? { isError: true } : {}) };
}
