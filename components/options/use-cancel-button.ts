import { useEffect, useRef } from 'preact/hooks';
import { useEscapeCancels } from '@/components/shared/use-escape-cancels';

/**
 * A Cancel button shown beside the button that starts something (a trial, a download) while it
 * runs. Cancel goes once it stops, at the person's press (or Escape) or by itself, and the focus it
 * had goes back to the button that starts it, not to the page body.
 */
export function useCancelButton(running: boolean, cancel: () => void) {
  const startButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // Chrome blurs a focused button it removes, with no element taking the focus: that blur leaves
  // the mark, which another element taking the focus clears.
  const cancelFocused = useRef(false);
  const press = () => {
    const focused = document.activeElement === cancelButton.current;
    cancel();
    if (focused) startButton.current?.focus();
  };
  useEscapeCancels(running, press);
  useEffect(() => {
    if (running || !cancelFocused.current) return;
    cancelFocused.current = false;
    startButton.current?.focus();
  }, [running]);
  return {
    startButton,
    /** For the Cancel button: its ref, its press, and what tells where the focus is. */
    cancelButton: {
      ref: cancelButton,
      onClick: press,
      onFocus: () => {
        cancelFocused.current = true;
      },
      onBlur: (event: FocusEvent) => {
        if (event.relatedTarget !== null) cancelFocused.current = false;
      },
    },
  };
}
