import type { ToolChange } from '@/lib/devtools/diff-tool-lists';

const kindLabels = { added: 'added', removed: 'removed', changed: 'changed', reloaded: 'page reloaded:', navigated: 'page went to' } as const;

/**
 * Tools added, removed and changed since the inspector opened, newest first: above the list of
 * tools, folded once it grows (a single-page app's view tools come and go at every view). A reload
 * or a navigation of the tab is a line of its own, followed by what the new page changed. `total`:
 * how many changes there were, where the log keeps only the newest.
 */
export function ChangeLog({ changes, total = changes.length }: { changes: readonly ToolChange[]; total?: number }) {
  return (
    <section class="change-log" aria-label="Changes">
      {changes.length === 0 ? (
        <p class="muted">No changes to the list since the inspector opened.</p>
      ) : (
        <details open={changes.length <= openUpTo}>
          <summary>
            {total === 1 ? '1 change' : `${total.toLocaleString('en-US')} changes`} to the list since the inspector opened
            {total > changes.length && `; the latest ${changes.length.toLocaleString('en-US')} are listed`}
          </summary>
          <ul>
            {changes.map((change, index) => (
              <li key={index} class={`change ${change.kind}`}>
                <time>{new Date(change.at).toLocaleTimeString()}</time> <span class="change-kind">{kindLabels[change.kind]}</span>{' '}
                <span class="change-name">{change.name}</span>
                {change.fields && <span class="muted"> ({change.fields.join(', ')})</span>}
                {change.frameId !== 0 && <span class="muted"> in frame {change.frameId}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/** A log this long or shorter shows open. */
const openUpTo = 5;
