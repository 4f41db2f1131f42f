import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { JsonText } from './json-text';

// The arguments a model writes are small; a huge one shows its start, and the rest on request,
// rather than lay out megabytes as the card comes.
const fullArgumentsLimit = 20_000;

/**
 * The arguments of a call the person is asked to check: every one, in full. Past 20,000 characters
 * the rest waits for a press, and is never left unseen: what is cut may be what matters (an
 * instruction padded past the cut).
 */
export function ArgumentsToCheck({ value }: { value: unknown }) {
  const [whole, setWhole] = useState(false);
  const text = useMemo(() => {
    try {
      return JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      return String(value);
    }
  }, [value]);
  const rest = whole ? 0 : Math.max(0, text.length - fullArgumentsLimit);
  const shown = useRef<HTMLPreElement>(null);
  const overflows = useOverflow(shown, text, whole);
  // The button goes as it is pressed: the focus goes to what it showed, not to the page body.
  const showAll = () => {
    setWhole(true);
    queueMicrotask(() => shown.current?.focus());
  };
  return (
    <>
      {/* Named: a long one scrolls, and Chromium makes a scroller a Tab stop (one shown whole is long). */}
      <pre class="tool-arguments full" data-testid="tool-arguments" role="group" aria-label="Arguments" tabIndex={whole ? 0 : undefined} ref={shown}>
        <JsonText text={rest > 0 ? text.slice(0, fullArgumentsLimit) : text} />
        {rest > 0 && '\n…'}
      </pre>
      {/* The box keeps the answer's buttons near: what it holds past its height is said to be there. */}
      {overflows && (
        <p class="tool-note" data-testid="arguments-go-on">
          The arguments go on below: scroll them to read them all.
        </p>
      )}
      {rest > 0 && (
        <button type="button" class="button" data-testid="show-all-arguments" onClick={showAll}>
          Show the other {rest.toLocaleString('en-US')} characters
        </button>
      )}
    </>
  );
}

/** Whether the box holds more than it shows, measured again as it or the panel changes size. */
function useOverflow(box: { current: HTMLElement | null }, ...changes: unknown[]): boolean {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, changes);
  return overflows;
}
