import type { DroppedTool } from '@/lib/registry/types';

/** The tools the extension refused, and why: what a site author fixes first. */
export function DroppedTools({ dropped }: { dropped: readonly DroppedTool[] }) {
  if (dropped.length === 0) return null;
  return (
    <section class="dropped" aria-label="Dropped tools">
      <h2>Dropped ({dropped.length})</h2>
      <ul>
        {dropped.map((tool, index) => (
          <li key={index}>
            <span class="dropped-name">{tool.name}</span>: <span class="dropped-reason">{tool.reason}</span>
            {/* The page's own tools are most; a frame's is told by Chrome's number for it. */}
            {tool.frameId !== 0 && <span class="muted"> (frame {tool.frameId})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
