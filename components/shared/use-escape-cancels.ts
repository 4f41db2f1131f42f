import { useEffect, useRef } from 'preact/hooks';

/**
 * Escape anywhere on the page cancels what goes on while `running`: a trial or a download in the
 * options, a run in the side panel. A key something else already took (an open list, a question's
 * safe answer) is left to it, and so is an IME's (it cancels a composition); `when`, where given,
 * says whether a cancel can go anywhere now (a key it cannot take is left alone).
 */
export function useEscapeCancels(running: boolean, cancel: () => void, when?: () => boolean): void {
  const latest = useRef({ cancel, when });
  latest.current = { cancel, when };
  useEffect(() => {
    if (!running) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      if (latest.current.when && !latest.current.when()) return;
      event.preventDefault();
      latest.current.cancel();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [running]);
}
