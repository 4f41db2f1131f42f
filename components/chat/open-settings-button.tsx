import { openOptions } from '@/lib/sidepanel/open-options';

/** Opens the extension's options page, where every "in the settings" of the panel sends the person. */
export function OpenSettingsButton({ label = 'Open settings', testId }: { label?: string; testId?: string }) {
  return (
    <button type="button" class="button" data-testid={testId} onClick={openOptions}>
      {label}
    </button>
  );
}
