import { isRecord } from '@webmcp-agents/chat';

/**
 * An MCP-style result `{content: [...], structuredContent?, isError?}` as text for the model and
 * whether it failed; undefined for any other string. Text items are kept as they are; an image or
 * audio item is named with its type and size, never given as base64; a resource gives its text
 * (or its address); a link its address. With no item the model can read, `structuredContent` is
 * given as JSON, and failing that the whole result. `structuredContent` comes back too, where the
 * result has one: the inspector checks it against the tool's output schema.
 */
export function readMcpResult(result: string): { text: string; isError: boolean; structuredContent?: unknown } | undefined {
  const trimmed = result.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const { content, structuredContent, isError } = parsed;
  if (!Array.isArray(content)) return undefined;
  const parts = content.flatMap(describeItem);
  const text = parts.length > 0 ? parts.join('\n') : structuredContent !== undefined ? JSON.stringify(structuredContent) : result;
  return { text, isError: isError === true, ...(structuredContent !== undefined ? { structuredContent } : {}) };
}

function describeItem(item: unknown): string[] {
  if (!isRecord(item)) return [];
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? [item.text] : [];
    case 'image':
    case 'audio':
      return [`[${item.type}${typeof item.mimeType === 'string' ? ` ${item.mimeType}` : ''}${sizeOf(item.data)}, not shown]`];
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      const uri = typeof resource.uri === 'string' ? resource.uri : undefined;
      if (typeof resource.text === 'string') return [uri ? `${uri}:\n${resource.text}` : resource.text];
      return [`[resource${uri ? ` ${uri}` : ''}${sizeOf(resource.blob)}, not shown]`];
    }
    case 'resource_link': {
      const uri = typeof item.uri === 'string' ? item.uri : undefined;
      const name = typeof item.name === 'string' ? item.name : undefined;
      return uri || name ? [`[link: ${[name, uri].filter(Boolean).join(' ')}]`] : [];
    }
    default:
      return [];
  }
}

// The size of base64 data in bytes, said in kB.
function sizeOf(data: unknown): string {
  if (typeof data !== 'string') return '';
  const kilobytes = Math.max(1, Math.round((data.length * 3) / 4 / 1000));
  return `, ${kilobytes.toLocaleString('en-US')} kB`;
}
