import { useEffect, useRef } from 'preact/hooks';

/**
 * Escape anywhere on the page cancels what goes on (a trial, a download), as it stops a run in the
 * side panel. A key something else already took (an open list) is left to it, and so is an IME's.
 */
export function useEscapeCancels(running: boolean, cancel: () => void): void {
  const latest = useRef(cancel);
  latest.current = cancel;
  useEffect(() => {
    if (!running) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [running]);
}
