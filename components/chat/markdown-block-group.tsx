import type { Token } from 'marked';
import { memo } from 'preact/compat';
import { MarkdownBlock } from './markdown-block';

interface MarkdownBlockGroupProps {
  tokens: Token[];
  linksKeys: string[];
}

function sameBlocks(previous: MarkdownBlockGroupProps, next: MarkdownBlockGroupProps): boolean {
  if (previous.tokens.length !== next.tokens.length) return false;
  return previous.tokens.every(
    (token, index) => token.raw === next.tokens[index]?.raw && previous.linksKeys[index] === next.linksKeys[index],
  );
}

/**
 * A run of consecutive blocks. A long reply has thousands of blocks; grouping them lets an update
 * skip whole unchanged groups instead of visiting every block, and layout skip groups out of view.
 */
export const MarkdownBlockGroup = memo(function MarkdownBlockGroup({ tokens, linksKeys }: MarkdownBlockGroupProps) {
  return (
    <div class="markdown-group">
      {tokens.map((token, index) => (
        <MarkdownBlock key={index} token={token} linksKey={linksKeys[index] ?? ''} />
      ))}
    </div>
  );
}, sameBlocks);
