import type { ToolChange } from '@/lib/devtools/diff-tool-lists';

const kindLabels = { added: 'added', removed: 'removed', changed: 'changed' } as const;

/** Tools added, removed and changed since the inspector opened, newest first. */
export function ChangeLog({ changes }: { changes: readonly ToolChange[] }) {
  return (
    <section class="change-log" aria-label="Changes">
      <h2>Changes</h2>
      {changes.length === 0 ? (
        <p class="muted">No changes since the inspector opened.</p>
      ) : (
        <ol>
          {changes.map((change, index) => (
            <li key={index} class={`change ${change.kind}`}>
              <time>{new Date(change.at).toLocaleTimeString()}</time> <span class="change-kind">{kindLabels[change.kind]}</span>{' '}
              <span class="change-name">{change.name}</span>
              {change.fields && <span class="muted"> ({change.fields.join(', ')})</span>}
              {change.frameId !== 0 && <span class="muted"> in frame {change.frameId}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
