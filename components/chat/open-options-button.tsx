import type { OptionsPlace } from '@/lib/sidepanel/options-place';
import { openOptions } from '@/lib/sidepanel/open-options';

interface OpenOptionsButtonProps {
  label?: string;
  testId?: string;
  extraClass?: string;
  /** The setting its notice asks the person to change: the page opens there. */
  place?: OptionsPlace;
}

/** Opens the extension's options page, where every "in the options" of the panel sends the person. */
export function OpenOptionsButton({ label = 'Open the options', testId, extraClass, place }: OpenOptionsButtonProps) {
  return (
    <button type="button" class={extraClass ? `button ${extraClass}` : 'button'} data-testid={testId} onClick={() => openOptions(place)}>
      {label}
    </button>
  );
}
