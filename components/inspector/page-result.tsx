import { formatToolText } from '@/lib/text/format-tool-text';
import { JsonText } from '@/components/shared/json-text';
import type { PageResult } from '@/lib/webmcp/read-page-result';

/**
 * What the page a form's run loaded gives as the form's result (its JSON-LD), pretty-printed:
 * what the agent's card shows after such a call.
 */
export function PageResultView({ pageResult }: { pageResult: PageResult }) {
  return (
    <div class="page-result" data-testid="page-result">
      <p class="run-meta">
        The page it loaded, <span class="page-result-url">{pageResult.url}</span>, gives this result:
      </p>
      <pre class="run-text">
        <JsonText text={formatToolText(pageResult.data)} />
      </pre>
    </div>
  );
}
