import { showTab } from '@/lib/sidepanel/show-tab';

/** Switches to the tab whose reply or run this tab's request waits for (see `waitingWords`). */
export function GoToTabButton({ tabId }: { tabId: number }) {
  return (
    <button type="button" class="button status-button" data-testid="go-to-waited-tab" onClick={() => void showTab(tabId)}>
      Go to that tab
    </button>
  );
}
