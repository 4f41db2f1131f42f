/**
 * An MCP-style result `{content: [{type: 'text', text}], isError}` as its text items joined (the
 * whole result when it has none) and whether it failed; undefined for any other string.
 */
export function readMcpResult(result: string): { text: string; isError: boolean } | undefined {
  const trimmed = result.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { content, isError } = parsed as { content?: unknown; isError?: unknown };
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((item) => (isTextItem(item) ? [item.text] : []));
  return { text: texts.length > 0 ? texts.join('\n') : result, isError: isError === true };
}

function isTextItem(item: unknown): item is { type: 'text'; text: string } {
  const candidate = item as { type?: unknown; text?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && candidate.type === 'text' && typeof candidate.text === 'string';
}
