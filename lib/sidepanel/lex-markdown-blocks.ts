import type { Links, Token } from 'marked';
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
}

// The last blocks can still change as text arrives: a list grows, a paragraph turns into a heading.
const unsettledBlocks = 3;

/**
 * Lexes `text` into blocks. While a reply streams, pass the previous result: only the text after
 * its settled blocks is lexed again, so each update costs the size of the tail, not of the reply.
 */
export function lexMarkdownBlocks(rawText: string, previous?: MarkdownBlocks): MarkdownBlocks {
  const text = normalizeLineEnds(rawText);
  const reusable =
    previous !== undefined &&
    previous.settledLength > 0 &&
    text.length >= previous.text.length &&
    text.startsWith(previous.text.slice(0, previous.settledLength));
  const settled = reusable ? previous.tokens.slice(0, previous.settledCount) : [];
  const offset = reusable ? previous.settledLength : 0;
  const tail = lexMarkdown(text.slice(offset), reusable ? previous.links : undefined);
  const tokens = settled.concat(tail);
  const tailKey = Object.keys(tail.links).length === 0 ? '' : JSON.stringify(tail.links);
  const linksKeys = (reusable ? previous.linksKeys.slice(0, settled.length) : []).concat(tail.map(() => tailKey));

  let settledCount = Math.max(0, tokens.length - unsettledBlocks);
  // Count on from the reused blocks when they stay settled; otherwise count from the start.
  const countFrom = settledCount >= settled.length ? settled.length : 0;
  let settledLength = countFrom === 0 ? 0 : offset;
  for (let index = countFrom; index < settledCount; index += 1) settledLength += tokens[index]?.raw.length ?? 0;
  const tailLength = tail.reduce((sum, token) => sum + token.raw.length, 0);
  // Should the lexer ever drop or rewrite text, block lengths no longer add up: lex it all next time.
  if (offset + tailLength !== text.length) {
    settledCount = 0;
    settledLength = 0;
  }
  return { text, tokens, linksKeys, links: tail.links, settledCount, settledLength };
}
