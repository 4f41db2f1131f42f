// A number field shows the stored value, but not over a number the person is still typing: the
// page is drawn again whenever the settings change elsewhere (the side panel, another tab).
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * Writes `value` into the field by hand rather than as its `value` property, which Preact would
 * put back over the typed text at every redraw. While the field has the focus the stored value
 * waits; on leaving it shows, unless the person's own number is on its way to the store.
 */
export function useStoredNumber(value: number) {
  const input = useRef<HTMLInputElement>(null);
  const waiting = useRef(false);
  const committed = useRef(false);
  useLayoutEffect(() => {
    const field = input.current;
    if (!field) return;
    waiting.current = document.activeElement === field;
    if (!waiting.current) field.value = String(value);
  }, [value]);
  return {
    input,
    /** The person's number was read (a change event): the store's answer redraws the field. */
    committed: () => (committed.current = true),
    blurred: () => {
      if (waiting.current && !committed.current && input.current) input.current.value = String(value);
      waiting.current = false;
      committed.current = false;
    },
  };
}
