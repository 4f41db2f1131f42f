import { formatToolText } from '@/lib/text/format-tool-text';
import { JsonText } from '@/components/shared/json-text';
import { statusWords, type LoadedPage } from '@/lib/webmcp/read-page-result';

/**
 * What the page a form's run loaded gives as the form's result (its JSON-LD), pretty-printed: what
 * the agent's card shows after such a call. A page that gives none is named, with its title; so is
 * the page the tab loaded while a script's tool ran, which the tool, the page or the person may
 * have opened: that much is not known. A page that came with an error status (404) says so.
 */
export function PageResultView({ pageResult }: { pageResult: LoadedPage }) {
  const { url, title, data, byScript, status } = pageResult;
  const before = byScript ? 'The tab loaded ' : 'The page it loaded, ';
  const after = byScript
    ? ', while the tool ran: the page may show how it went.'
    : status
      ? `, answered with an error (${statusWords(status)})${data === undefined ? ': it shows what went wrong.' : '. It gives this:'}`
      : data === undefined
        ? ', gives no result of its own: it shows how the form went.'
        : ', gives this result:';
  return (
    <div class={status ? 'page-result is-error' : 'page-result'} data-testid="page-result" data-status={status}>
      <p class="run-meta">
        {before}
        {title && <>"{title}", </>}
        <span class="page-result-url">{url}</span>
        {after}
      </p>
      {data !== undefined && (
        <pre class="run-text" role="group" aria-label="What the page gives">
          <JsonText text={formatToolText(data)} />
        </pre>
      )}
    </div>
  );
}
