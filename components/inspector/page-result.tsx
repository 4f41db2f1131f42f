import { formatToolText } from '@/lib/text/format-tool-text';
import { JsonText } from '@/components/shared/json-text';
import type { LoadedPage } from '@/lib/webmcp/read-page-result';

/**
 * What the page a form's run loaded gives as the form's result (its JSON-LD), pretty-printed: what
 * the agent's card shows after such a call. A page that gives none is named, with its title; so is
 * the page a script's tool opened.
 */
export function PageResultView({ pageResult }: { pageResult: LoadedPage }) {
  const { url, title, data, byScript } = pageResult;
  const after = byScript
    ? '. The tool gave no result of its own: the page shows how it went.'
    : data === undefined
      ? ', gives no result of its own: it shows how the form went.'
      : ', gives this result:';
  return (
    <div class="page-result" data-testid="page-result">
      <p class="run-meta">
        The page it loaded, {title && <>"{title}", </>}
        <span class="page-result-url">{url}</span>
        {after}
      </p>
      {data !== undefined && (
        <pre class="run-text">
          <JsonText text={formatToolText(data)} />
        </pre>
      )}
    </div>
  );
}
