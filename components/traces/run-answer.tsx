import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '@/lib/sidepanel/render-markdown';
import { replyDirection } from '@/lib/text/text-direction';

/** Past this many characters an answer is shown as written: rendering it would hold up the viewer. */
const markdownLimit = 50_000;

/**
 * The run's answer as the side panel showed it: the model's Markdown, rendered by the panel's own
 * safe renderer (formatting and web links only), since a trace, or a file imported as one, may
 * carry any text a page or a model wrote.
 */
export function RunAnswer({ text }: { text: string }) {
  const html = useMemo(() => (text.length > markdownLimit ? undefined : renderMarkdown(text)), [text]);
  // As the side panel reads it: an Arabic answer may start with a Latin name (see replyDirection).
  const dir = useMemo(() => replyDirection(text.slice(0, 4_000)) ?? 'auto', [text]);
  if (html === undefined) {
    return (
      <p class="run-answer as-written" data-testid="run-answer" dir={dir}>
        {text}
      </p>
    );
  }
  return <div class="run-answer" data-testid="run-answer" dir={dir} dangerouslySetInnerHTML={{ __html: html }} />;
}
