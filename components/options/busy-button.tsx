import type { ComponentChildren } from 'preact';

interface BusyButtonProps {
  type?: 'button' | 'submit';
  busy: boolean;
  onClick?: () => void;
  children: ComponentChildren;
}

/**
 * A button that waits while its work goes on. It is marked aria-disabled and ignores presses
 * rather than being disabled: a disabled button drops the keyboard focus to the page body.
 */
export function BusyButton({ type = 'button', busy, onClick, children }: BusyButtonProps) {
  return (
    <button
      type={type}
      aria-disabled={busy ? 'true' : undefined}
      onClick={(event) => {
        // Cancelling the click also cancels a form's submission, Enter in its field included.
        if (busy) event.preventDefault();
        else onClick?.();
      }}
    >
      {children}
    </button>
  );
}
