import { isRecord } from '@webmcp-agents/chat';

/** `#`, `#/$defs/address`, `#/properties/a/items`: a JSON pointer into the schema itself. */
export function resolvePointer(root: Record<string, unknown>, reference: string): unknown {
  if (reference === '#') return root;
  if (!reference.startsWith('#/')) return undefined;
  // A fragment is decoded whole before it is split (RFC 6901, section 6): "%2F" separates, as "/" does.
  let pointer: string;
  try {
    pointer = decodeURIComponent(reference.slice(2));
  } catch {
    return undefined; // "#/%": not a pointer at all
  }
  let node: unknown = root;
  for (const raw of pointer.split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node;
}
