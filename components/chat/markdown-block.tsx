import type { Token } from 'marked';
import { memo } from 'preact/compat';
import { renderMarkdownBlock } from '@/lib/sidepanel/render-markdown';

interface MarkdownBlockProps {
  token: Token;
  linksKey: string;
}

/** One top-level Markdown block; it renders again only when its own text or the link definitions change. */
export const MarkdownBlock = memo(
  function MarkdownBlock({ token }: MarkdownBlockProps) {
    const html = renderMarkdownBlock(token);
    // Each block takes its direction from its own first letters: a reply may mix languages.
    return html ? <div class="markdown-block" dir="auto" dangerouslySetInnerHTML={{ __html: html }} /> : null;
  },
  (previous, next) => previous.token.raw === next.token.raw && previous.linksKey === next.linksKey,
);
