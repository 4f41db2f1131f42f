import type { JSX } from 'preact';

type ButtonClick = JSX.MouseEventHandler<HTMLButtonElement>;

/**
 * What a button gets while it cannot be pressed for a while (the panel reconnects, so a press would
 * go nowhere; a request runs, which New chat waits for): a press does nothing and the button says
 * it cannot be pressed (`aria-disabled`). Not `disabled`: Chrome takes the keyboard focus off a
 * button that becomes disabled, and the person would start again from the top of the panel, nor
 * can the keyboard reach it to hear why; here it stays, and the press works once `allowed`.
 */
export function pressWhenAllowed(allowed: boolean, onClick: ButtonClick): { 'aria-disabled'?: 'true'; onClick: ButtonClick } {
  return {
    ...(allowed ? {} : { 'aria-disabled': 'true' as const }),
    onClick: (event) => {
      if (allowed) onClick(event);
    },
  };
}
