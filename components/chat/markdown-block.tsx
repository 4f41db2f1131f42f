import type { Token, Tokens } from 'marked';
import { memo } from 'preact/compat';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { showBlock, type BlockPieces } from '@/lib/sidepanel/growing-block';
import { renderMarkdownBlock } from '@/lib/sidepanel/render-markdown';
import { blockDirection, type Direction } from '@/lib/text/text-direction';
import { CodeBlock } from './code-block';

interface MarkdownBlockProps {
  token: Token;
  linksKey: string;
}

/** One top-level Markdown block; it renders again only when its own text or the link definitions change. */
export const MarkdownBlock = memo(
  function MarkdownBlock({ token, linksKey }: MarkdownBlockProps) {
    // A block reads in the direction most of its letters say, else in the reply's (an Arabic
    // list's items may each start with a Latin name); a reply may mix languages. Code reads left
    // to right.
    const dir = token.type === 'code' ? 'ltr' : blockDirection(token.raw);
    if (token.type === 'list' || token.type === 'table') return <GrowingBlock token={token} linksKey={linksKey} dir={dir} />;
    const html = renderMarkdownBlock(token);
    if (!html) return null;
    if (token.type === 'code') return <CodeBlock token={token as Tokens.Code} html={html} />;
    return <div class="markdown-block" dir={dir} dangerouslySetInnerHTML={{ __html: html }} />;
  },
  (previous, next) => previous.token.raw === next.token.raw && previous.linksKey === next.linksKey,
);

/** A list or a table: as it grows, only its new or changed items or rows render. */
function GrowingBlock({ token, linksKey, dir }: MarkdownBlockProps & { dir: Direction | undefined }) {
  const host = useRef<HTMLDivElement>(null);
  const shown = useRef<BlockPieces | undefined>(undefined);
  useLayoutEffect(() => {
    if (host.current) shown.current = showBlock(host.current, token, linksKey, shown.current);
  }, [token, linksKey]);
  return <div class="markdown-block" dir={dir} ref={host} />;
}
