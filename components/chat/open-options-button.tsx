import { openOptions } from '@/lib/sidepanel/open-options';

/** Opens the extension's options page, where every "in the options" of the panel sends the person. */
export function OpenOptionsButton({ label = 'Open the options', testId, extraClass }: { label?: string; testId?: string; extraClass?: string }) {
  return (
    <button type="button" class={extraClass ? `button ${extraClass}` : 'button'} data-testid={testId} onClick={openOptions}>
      {label}
    </button>
  );
}
