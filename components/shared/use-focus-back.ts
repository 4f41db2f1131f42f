import { useEffect, useRef } from 'preact/hooks';

/**
 * A question asked in place of the button that asked it ("Delete" → "Delete it? Yes / No") takes
 * that button away. On the safe answer the focus goes back to it once it shows again, or the focus
 * would fall to the page body and a keyboard user would start again from the top.
 */
export function useFocusBack(asking: boolean) {
  /** For the button that asks. */
  const askButton = useRef<HTMLButtonElement>(null);
  const declined = useRef(false);
  useEffect(() => {
    if (asking || !declined.current) return;
    declined.current = false;
    askButton.current?.focus();
  }, [asking]);
  return {
    askButton,
    /** The person answered no: the asking button gets the focus back when it shows again. */
    decline: () => {
      declined.current = true;
    },
  };
}
