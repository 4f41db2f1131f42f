import type { Token, Tokens } from 'marked';
import { renderMarkdownBlock } from './render-markdown';

/**
 * What a list or a table block shows: its frame (what every piece's rendering depends on) and its
 * pieces (a list's items, a table's body rows). A streamed list or table grows piece by piece.
 */
export interface BlockPieces {
  frame: string;
  pieces: string[];
}

/** The frame and pieces of a list or a table; `undefined` for any other block. */
function blockPieces(token: Token, linksKey: string): BlockPieces | undefined {
  if (token.type === 'list') {
    const list = token as Tokens.List;
    return { frame: [list.ordered, list.start, list.loose, linksKey].join('\n'), pieces: list.items.map((item) => item.raw) };
  }
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    const header = table.header.map((cell) => cell.text).join('\n');
    return { frame: [header, table.align.join('\n'), linksKey].join('\n\n'), pieces: table.rows.map(rowKey) };
  }
  return undefined;
}

function rowKey(row: Tokens.TableCell[]): string {
  return row.map((cell) => cell.text).join('\n');
}

/**
 * Shows `token` in `host`, which shows `shown` (what the last call returned). A list or a table
 * whose frame is unchanged keeps the pieces it shows that are unchanged and renders only those
 * after: a reply that is one long list costs each update the items it added, not the whole list.
 * Anything else renders whole. Returns what `host` now shows.
 */
export function showBlock(host: HTMLElement, token: Token, linksKey: string, shown?: BlockPieces): BlockPieces | undefined {
  const next = blockPieces(token, linksKey);
  if (next && shown && shown.frame === next.frame && next.pieces.length > 0 && patchPieces(host, token, shown, next)) return next;
  host.innerHTML = renderMarkdownBlock(token);
  return next;
}

function patchPieces(host: HTMLElement, token: Token, shown: BlockPieces, next: BlockPieces): boolean {
  const container = piecesContainer(host, token.type);
  if (!container || container.childElementCount !== shown.pieces.length) return false;
  let from = 0;
  while (from < shown.pieces.length && from < next.pieces.length && shown.pieces[from] === next.pieces[from]) from += 1;
  if (from === shown.pieces.length && from === next.pieces.length) return true;

  let added: Node[] = [];
  if (from < next.pieces.length) {
    const template = document.createElement('template');
    template.innerHTML = renderMarkdownBlock(blockFrom(token, from));
    const source = piecesContainer(template.content, token.type);
    if (!source || source.childElementCount !== next.pieces.length - from) return false;
    // Pieces and the line ends between them, as the whole block's HTML has them.
    const nodes = [...source.childNodes];
    added = nodes.slice(nodes.indexOf(source.firstElementChild!));
  }
  // The pieces from `from` on go, with the line ends between them; the last ones first.
  const stale = container.children[from];
  const kept = stale?.previousSibling ?? null;
  if (stale) while (container.lastChild && container.lastChild !== kept) container.lastChild.remove();
  container.append(...added);
  return true;
}

/** The element whose children are the pieces: the list, or the table's body. */
function piecesContainer(root: ParentNode, type: string): Element | undefined {
  const block = root.firstElementChild ?? undefined;
  if (type === 'list') return block && (block.tagName === 'OL' || block.tagName === 'UL') ? block : undefined;
  return block?.tagName === 'TABLE' ? ((block as HTMLTableElement).tBodies[0] ?? undefined) : undefined;
}

/** The same block with only its pieces from `from` on. */
function blockFrom(token: Token, from: number): Token {
  if (token.type === 'list') {
    const list = token as Tokens.List;
    const items = list.items.slice(from);
    return { ...list, items, raw: items.map((item) => item.raw).join('') };
  }
  const table = token as Tokens.Table;
  return { ...table, rows: table.rows.slice(from) };
}
