import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The safe answer to a question asked in place of the button that asked it ("Delete?" → "No").
 * The question took the focused button away, so the focus goes to this answer, once, when the
 * question appears: a later render must not pull it back from the other answer.
 */
export function SafeAnswer({ onClick, children }: { onClick: () => void; children: ComponentChildren }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <button type="button" ref={button} onClick={onClick}>
      {children}
    </button>
  );
}
