import { useMemo, useState } from 'preact/hooks';
import { requestPreview } from '@/lib/sidepanel/request-preview';

/**
 * The person's request, a heading (a screen reader's heading keys move from request to request).
 * A long one shows its start, with a button to show all of it, and to show its start again.
 */
export function RequestHeading({ id, request }: { id: string; request: string }) {
  const preview = useMemo(() => requestPreview(request), [request]);
  const [whole, setWhole] = useState(false);
  return (
    <>
      {/* A request in Arabic or Hebrew reads right to left: each text takes its direction from its first letters. */}
      <h2 class="request" data-testid="request" id={id} dir="auto">
        {preview === undefined || whole ? request : preview}
      </h2>
      {preview !== undefined && (
        <button type="button" class="request-toggle" data-testid="request-toggle" aria-expanded={whole} aria-controls={id} onClick={() => setWhole(!whole)}>
          {whole ? 'Show less' : `Show all ${request.length.toLocaleString('en-US')} characters`}
        </button>
      )}
    </>
  );
}
