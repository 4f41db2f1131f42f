// A number field shows the stored value, but not over a number the person is still typing: the
// page is drawn again whenever the settings change elsewhere (the side panel, another tab).
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * Writes `value` into the field by hand rather than as its `value` property, which Preact would
 * put back over the typed text at every redraw. A value stored while the person types waits until
 * they leave the field, unless their own number is on its way to the store by then (a change
 * event: the store's answer redraws the field); once a number is read, the field follows the
 * store again, focus or not.
 */
export function useStoredNumber(value: number) {
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(value);
  latest.current = value;
  // Typed since the last number was read; and a stored value came meanwhile.
  const typing = useRef(false);
  const missed = useRef(false);
  useLayoutEffect(() => {
    const field = input.current;
    if (!field) return;
    missed.current = typing.current && document.activeElement === field;
    if (!missed.current) field.value = String(value);
  }, [value]);
  return {
    input,
    typed: () => (typing.current = true),
    /** The person's number was read (a change event). */
    committed: () => (typing.current = false),
    /**
     * What storing a number answered: where it says the number could not be (`false`), the field
     * shows the stored one again, unless the person typed on since.
     */
    whenRefused: (storing: Promise<boolean> | void) => {
      void Promise.resolve(storing).then(
        (saved) => {
          if (saved === false && !typing.current && input.current) input.current.value = String(latest.current);
        },
        () => undefined,
      );
    },
    blurred: () => {
      if (missed.current && typing.current && input.current) input.current.value = String(latest.current);
      typing.current = false;
      missed.current = false;
    },
  };
}
