import { memo } from 'preact/compat';
import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { lexMarkdownBlocks, type MarkdownBlocks } from '@/lib/sidepanel/lex-markdown-blocks';
import { replyDirection } from '@/lib/text/text-direction';
import { MarkdownBlockGroup } from './markdown-block-group';
import { useProgressiveCount } from './use-progressive-count';
import { useThrottledText } from './use-throttled-text';

const blocksPerGroup = 64;
// The reply's start tells its direction (see replyDirection): a delta after it changes nothing.
const directionSample = 4_000;

function groupStarts(count: number): number[] {
  return Array.from({ length: Math.ceil(count / blocksPerGroup) }, (_, index) => index * blocksPerGroup);
}

interface ProseViewProps {
  text: string;
  /** Still streaming: render at a bounded rate instead of at every delta. */
  live: boolean;
}

/**
 * A model's prose as safe Markdown, one block at a time: a growing reply lexes and renders only
 * its tail, at most every 40 ms (less often when rendering is slow), and a long one appears over
 * a few frames. Finished prose renders once (a long one in steps) and stays memoised.
 */
export const ProseView = memo(function ProseView({ text, live }: ProseViewProps) {
  const renderCost = useRef(0);
  const renderStart = useRef(0);
  const lexed = useRef<MarkdownBlocks | undefined>(undefined);
  const shown = useThrottledText(text, live, renderCost.current);
  const blocks = useMemo(() => {
    renderStart.current = performance.now();
    // A reference definition can change how earlier blocks read: then a finished reply is lexed whole,
    // once it is all shown.
    const reuse = live || shown !== text || Object.keys(lexed.current?.links ?? {}).length === 0;
    lexed.current = lexMarkdownBlocks(shown, reuse ? lexed.current : undefined);
    return lexed.current;
  }, [shown, live]);
  const count = useProgressiveCount(blocks.tokens);
  const start = shown.slice(0, directionSample);
  const dir = useMemo(() => replyDirection(start), [start]);
  const container = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    // While it streams, the page is laid out here rather than at the next frame, so that the cost
    // counts layout too: a growing table's layout follows every row, and can cost more than its rendering.
    if (live) void container.current?.offsetHeight;
    renderCost.current = performance.now() - renderStart.current;
  }, [blocks]);

  // The same element while nothing changed: a delta that does not render yet costs nothing.
  return useMemo(
    () => (
      <div class="prose" data-testid="prose" dir={dir} ref={container}>
        {groupStarts(count).map((start) => {
          const end = Math.min(count, start + blocksPerGroup);
          return (
            <MarkdownBlockGroup
              key={start}
              tokens={blocks.tokens.slice(start, end)}
              linksKeys={blocks.linksKeys.slice(start, end)}
            />
          );
        })}
      </div>
    ),
    [blocks, count, dir],
  );
});
