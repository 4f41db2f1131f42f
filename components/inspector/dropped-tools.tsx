import { HiddenCharacters } from '@/components/shared/json-text';
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
            {/* The page's words (a reason may quote the name): a direction override in them turns nothing else around. */}
            <span class="dropped-name">
              <HiddenCharacters text={tool.name} />
            </span>
            : <span class="dropped-reason">
              <HiddenCharacters text={tool.reason} />
            </span>
            {/* The page's own tools are most; a frame's is told by Chrome's number for it. */}
            {tool.frameId !== 0 && <span class="muted"> (frame {tool.frameId})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
