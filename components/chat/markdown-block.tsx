import type { Token } from 'marked';
import { memo } from 'preact/compat';
import { renderMarkdownBlock } from '@/lib/sidepanel/render-markdown';
import { blockDirection } from '@/lib/text/text-direction';

interface MarkdownBlockProps {
  token: Token;
  linksKey: string;
}

/** One top-level Markdown block; it renders again only when its own text or the link definitions change. */
export const MarkdownBlock = memo(
  function MarkdownBlock({ token }: MarkdownBlockProps) {
    const html = renderMarkdownBlock(token);
    // A block reads in the direction most of its letters say, else in the reply's (an Arabic
    // list's items may each start with a Latin name); a reply may mix languages. Code reads left
    // to right.
    const dir = token.type === 'code' ? 'ltr' : blockDirection(token.raw);
    return html ? <div class="markdown-block" dir={dir} dangerouslySetInnerHTML={{ __html: html }} /> : null;
  },
  (previous, next) => previous.token.raw === next.token.raw && previous.linksKey === next.linksKey,
);
