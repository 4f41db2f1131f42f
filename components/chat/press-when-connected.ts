import type { JSX } from 'preact';

type ButtonClick = JSX.MouseEventHandler<HTMLButtonElement>;

/**
 * What a button that asks the background gets while the panel reconnects: a press would go
 * nowhere, so it does nothing and the button says it cannot be pressed (`aria-disabled`). Not
 * `disabled`: Chrome takes the keyboard focus off a button that becomes disabled, and the person
 * would start again from the top of the panel; here it stays, and the press works once connected.
 */
export function pressWhenConnected(connected: boolean, onClick: ButtonClick): { 'aria-disabled'?: 'true'; onClick: ButtonClick } {
  return {
    ...(connected ? {} : { 'aria-disabled': 'true' as const }),
    onClick: (event) => {
      if (connected) onClick(event);
    },
  };
}
