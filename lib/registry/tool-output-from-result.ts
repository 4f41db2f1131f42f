import type { ToolOutput } from '@webmcp-agents/chat';

/**
 * A page's result as text for the model: an MCP-style `{content: [{type: 'text', text}]}` becomes
 * its joined text (and `isError` is kept); any other string stays as the page gave it; `null`
 * means the call navigated the page.
 */
export function toolOutputFromResult(name: string, result: string | null): ToolOutput {
  if (result === null) {
    return { text: `The tool "${name}" navigated the page to a new document; it gave no other result.` };
  }
  const content = mcpContent(result);
  if (!content) return { text: result };
  const texts = content.items.flatMap((item) => (isTextItem(item) ? [item.text] : []));
  if (texts.length === 0) return { text: result, ...(content.isError ? { isError: true } : {}) };
  return { text: texts.join('\n'), ...(content.isError ? { isError: true } : {}) };
}

function mcpContent(result: string): { items: unknown[]; isError: boolean } | undefined {
  const trimmed = result.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { content, isError } = parsed as { content?: unknown; isError?: unknown };
    return Array.isArray(content) ? { items: content, isError: isError === true } : undefined;
  } catch {
    return undefined;
  }
}

function isTextItem(item: unknown): item is { type: 'text'; text: string } {
  const candidate = item as { type?: unknown; text?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && candidate.type === 'text' && typeof candidate.text === 'string';
}
