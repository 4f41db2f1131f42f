import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The safe answer to a question asked in place of the button that asked it ("Delete?" → "No").
 * The question took the focused button away, so the focus goes to this answer, once, when the
 * question appears: a later render must not pull it back from the other answer. Escape, from
 * either answer (or whatever shares their row), gives this answer.
 */
export function SafeAnswer({ onClick, children }: { onClick: () => void; children: ComponentChildren }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  useEffect(() => {
    const answer = button.current;
    const question = answer?.parentElement;
    if (!answer || !question) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      answer.click();
    };
    question.addEventListener('keydown', onKeyDown);
    return () => question.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <button type="button" ref={button} onClick={onClick}>
      {children}
    </button>
  );
}
