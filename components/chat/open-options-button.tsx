import { openOptions } from '@/lib/sidepanel/open-options';

/** Opens the extension's options page, where every "in the options" of the panel sends the person. */
export function OpenOptionsButton({ label = 'Open the options', testId }: { label?: string; testId?: string }) {
  return (
    <button type="button" class="button" data-testid={testId} onClick={openOptions}>
      {label}
    </button>
  );
}
