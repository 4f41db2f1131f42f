import { useMemo, useRef, useState } from 'preact/hooks';
import { requestPreview, showAllWords } from '@/lib/sidepanel/request-preview';
import { HiddenCharacters } from '@/components/shared/json-text';

/**
 * The person's request, a heading (a screen reader's heading keys move from request to request).
 * A long one shows its start, with a button to show all of it, and to show its start again.
 */
export function RequestHeading({ id, request }: { id: string; request: string }) {
  const preview = useMemo(() => requestPreview(request), [request]);
  const showAll = useMemo(() => (preview === undefined ? '' : showAllWords(request)), [preview, request]);
  const [whole, setWhole] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const showLess = () => {
    setWhole(false);
    // The request shrinks above the button, which the reader would otherwise find screens away.
    requestAnimationFrame(() => toggle.current?.scrollIntoView({ block: 'nearest' }));
  };
  return (
    <>
      {/* A request in Arabic or Hebrew reads right to left: each text takes its direction from its first letters. */}
      <h2 class="request" data-testid="request" id={id} dir="auto">
        {/* Pasted from elsewhere, it may carry what draws nothing and still reaches the model: shown by its code. */}
        <HiddenCharacters text={preview === undefined || whole ? request : preview} />
      </h2>
      {preview !== undefined && (
        <button
          ref={toggle}
          type="button"
          class="request-toggle"
          data-testid="request-toggle"
          aria-expanded={whole}
          aria-controls={id}
          onClick={() => (whole ? showLess() : setWhole(true))}
        >
          {whole ? 'Show less' : showAll}
        </button>
      )}
    </>
  );
}
