import type { Links, Token, Tokens } from 'marked';
import { lexMarkdown, normalizeLineEnds } from './render-markdown';

/** A text split into top-level Markdown blocks, with what a longer text may reuse. */
export interface MarkdownBlocks {
  text: string;
  tokens: Token[];
  /**
   * Per block, the reference definitions it was lexed with, as a string: a block whose text and
   * definitions are unchanged renders the same, so it need not render again.
   */
  linksKeys: string[];
  links: Links;
  /** Leading blocks that more text appended at the end does not change. */
  settledCount: number;
  /** Their length in `text`. */
  settledLength: number;
  /**
   * The reference definitions of those blocks: the only ones a longer text is lexed with, as one
   * in the blocks after them may still be half written (`[ref]: https://sh`).
   */
  settledLinks: Links;
  /** The last block, where it is a list or a table long enough that only its end is lexed again. */
  growing?: GrowingBlock;
}

/** A list or a table at the end of the text: its leading items or rows stay as more text comes. */
interface GrowingBlock {
  index: number;
  /** Where the block starts in `text`. */
  start: number;
  /** How many of its items or rows stay, and their length (a table's with its header and delimiter lines). */
  settledPieces: number;
  settledLength: number;
  /** What the rest is lexed after: a table's header and delimiter lines, so that its rows read as rows. */
  head: string;
  /** The definitions of the blocks before it. */
  linksBefore: Links;
}

// The last blocks can still change as text arrives: a list grows, a paragraph turns into a heading.
const unsettledBlocks = 3;
// The last items of a list, or rows of a table, can still change in the same way.
const unsettledPieces = 2;

/**
 * Lexes `text` into blocks. While a reply streams, pass the previous result: only the text after
 * its settled blocks is lexed again, so each update costs the size of the tail, not of the reply;
 * where the reply ends in a long list or table, only that block's last items or rows are.
 */
export function lexMarkdownBlocks(rawText: string, previous?: MarkdownBlocks): MarkdownBlocks {
  const text = normalizeLineEnds(rawText);
  return (previous && continueGrowing(text, previous)) ?? lexAfterSettled(text, previous);
}

function lexAfterSettled(text: string, previous: MarkdownBlocks | undefined): MarkdownBlocks {
  const reusable =
    previous !== undefined &&
    previous.settledLength > 0 &&
    text.length >= previous.text.length &&
    text.startsWith(previous.text.slice(0, previous.settledLength));
  const settled = reusable ? previous.tokens.slice(0, previous.settledCount) : [];
  const offset = reusable ? previous.settledLength : 0;
  const tail = lexMarkdown(text.slice(offset), reusable ? previous.settledLinks : undefined);
  const tailKey = linksKey(tail.links);
  return settle(text, {
    tokens: settled.concat(tail),
    linksKeys: (reusable ? previous.linksKeys.slice(0, settled.length) : []).concat(tail.map(() => tailKey)),
    links: tail.links,
    reused: reusable ? { count: settled.length, length: offset, links: previous.settledLinks } : undefined,
  });
}

/**
 * Where the previous text ended in a long list or table and this one goes on from it, lexes only
 * the block's last items or rows and what follows, and joins them to the ones that stay. Undefined
 * where what follows does not continue the same block as it was (another kind of list, a list
 * turning loose, a table's header changed): then the caller lexes as usual.
 */
function continueGrowing(text: string, previous: MarkdownBlocks): MarkdownBlocks | undefined {
  const growing = previous.growing;
  if (!growing) return undefined;
  const keep = growing.start + growing.settledLength;
  if (text.length < previous.text.length || !text.startsWith(previous.text.slice(0, keep))) return undefined;
  const block = previous.tokens[growing.index]!;
  const tail = lexMarkdown(growing.head + text.slice(keep), growing.linksBefore);
  const joined = tail[0] && joinBlock(block, tail[0], growing, text.slice(growing.start, keep));
  if (!joined) return undefined;
  const tailKey = linksKey(tail.links);
  const tokens = previous.tokens.slice(0, growing.index).concat(joined, tail.slice(1));
  return settle(text, {
    tokens,
    linksKeys: previous.linksKeys.slice(0, growing.index).concat(tokens.slice(growing.index).map(() => tailKey)),
    links: tail.links,
    reused: { count: previous.settledCount, length: previous.settledLength, links: previous.settledLinks },
  });
}

/** `block`'s pieces that stay, then those of `next`, the same kind of block lexed from where they end. */
function joinBlock(block: Token, next: Token, growing: GrowingBlock, keptText: string): Token | undefined {
  if (block.type === 'list' && next.type === 'list') {
    const [list, more] = [block as Tokens.List, next as Tokens.List];
    const sameList = more.ordered === list.ordered && more.loose === list.loose && marker(more.items[0]) === marker(list.items[0]);
    if (!sameList) return undefined;
    return { ...list, items: list.items.slice(0, growing.settledPieces).concat(more.items), raw: keptText + more.raw };
  }
  if (block.type === 'table' && next.type === 'table') {
    const [table, more] = [block as Tokens.Table, next as Tokens.Table];
    const sameHead = more.raw.startsWith(growing.head) && more.align.join() === table.align.join() && cellsText(more.header) === cellsText(table.header);
    if (!sameHead) return undefined;
    return { ...table, rows: table.rows.slice(0, growing.settledPieces).concat(more.rows), raw: keptText + more.raw.slice(growing.head.length) };
  }
  return undefined;
}

/** An item's bullet (`-`, `*`, `+`) or an ordered item's delimiter (`.`, `)`): a list goes on only with the same. */
function marker(item: Tokens.ListItem | undefined): string | undefined {
  const match = /^ {0,3}(?:([*+-])|\d{1,9}([.)]))/.exec(item?.raw ?? '');
  return match?.[1] ?? match?.[2];
}

function cellsText(cells: Tokens.TableCell[]): string {
  return cells.map((cell) => cell.text).join('\n');
}

interface Lexed {
  tokens: Token[];
  linksKeys: string[];
  links: Links;
  /** The leading blocks taken as they were, settled then: how many, their length and definitions. */
  reused: { count: number; length: number; links: Links } | undefined;
}

/** Which of the blocks more text can no longer change, and whether the last one grows. */
function settle(text: string, { tokens, linksKeys, links, reused }: Lexed): MarkdownBlocks {
  const total = tokens.reduce((sum, token) => sum + token.raw.length, 0);
  // Should the lexer ever drop or rewrite text, block lengths no longer add up: lex it all next time.
  if (total !== text.length) return { text, tokens, linksKeys, links, settledCount: 0, settledLength: 0, settledLinks: {} };

  const settledCount = Math.max(0, tokens.length - unsettledBlocks);
  // Count on from the reused blocks when they stay settled; otherwise count from the start.
  const from = reused && settledCount >= reused.count ? reused : { count: 0, length: 0, links: {} };
  let settledLength = from.length;
  const settledLinks: Links = { ...from.links };
  for (let index = from.count; index < settledCount; index += 1) {
    settledLength += tokens[index]!.raw.length;
    addDefinition(settledLinks, tokens[index]!);
  }
  return { text, tokens, linksKeys, links, settledCount, settledLength, settledLinks, growing: growingBlock(tokens, settledCount, settledLength, settledLinks) };
}

function addDefinition(links: Links, token: Token): void {
  if (token.type !== 'def') return;
  const { tag, href, title } = token as Tokens.Def;
  links[tag] ??= { href, title };
}

/** The last block, where it is a list or a table with items or rows that more text cannot change. */
function growingBlock(tokens: Token[], settledCount: number, settledLength: number, settledLinks: Links): GrowingBlock | undefined {
  let index = tokens.length - 1;
  while (index > 0 && tokens[index]!.type === 'space') index -= 1;
  const block = tokens[index];
  if (!block || index < settledCount) return undefined;
  let start = settledLength;
  const linksBefore: Links = { ...settledLinks };
  for (let before = settledCount; before < index; before += 1) {
    start += tokens[before]!.raw.length;
    addDefinition(linksBefore, tokens[before]!);
  }
  const pieces = settledPieces(block);
  return pieces && pieces.count > 0 ? { index, start, settledPieces: pieces.count, settledLength: pieces.length, head: pieces.head, linksBefore } : undefined;
}

/** How many of a list's items or a table's rows stay as more text comes, with their length and what the rest is lexed after. */
function settledPieces(block: Token): { count: number; length: number; head: string } | undefined {
  if (block.type === 'list') {
    const { items } = block as Tokens.List;
    const count = items.length - unsettledPieces;
    let length = 0;
    for (let index = 0; index < count; index += 1) length += items[index]!.raw.length;
    return { count, length, head: '' };
  }
  if (block.type === 'table') {
    const { rows, raw } = block as Tokens.Table;
    // One row a line, after the header and delimiter lines: where a table's lines say otherwise, it is lexed whole.
    const lines = raw.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length !== rows.length + 2) return undefined;
    const head = `${lines[0]}\n${lines[1]}\n`;
    const count = rows.length - unsettledPieces;
    let length = head.length;
    for (let index = 0; index < count; index += 1) length += lines[index + 2]!.length + 1;
    return { count, length, head };
  }
  return undefined;
}

function linksKey(links: Links): string {
  return Object.keys(links).length === 0 ? '' : JSON.stringify(links);
}
