import type { ComponentChildren, Ref } from 'preact';
import type { OptionsPlace } from '@/lib/sidepanel/options-place';

interface BusyButtonProps {
  type?: 'button' | 'submit';
  busy: boolean;
  onClick?: () => void;
  children: ComponentChildren;
  /** For a page that gives the button the focus back, as Cancel beside it does. */
  buttonRef?: Ref<HTMLButtonElement>;
  /** Where a notice in the side panel may send the person (`OptionsPlace`). */
  place?: OptionsPlace;
  /** The id of what says why it waits, where another page's work keeps it busy. */
  describedBy?: string;
}

/**
 * A button that waits while its work goes on. It is marked aria-disabled and ignores presses
 * rather than being disabled: a disabled button drops the keyboard focus to the page body.
 */
export function BusyButton({ type = 'button', busy, onClick, children, buttonRef, place, describedBy }: BusyButtonProps) {
  return (
    <button
      ref={buttonRef}
      type={type}
      data-place={place}
      aria-disabled={busy ? 'true' : undefined}
      aria-describedby={describedBy}
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
