import { showTab } from '@/lib/sidepanel/show-tab';

/** Switches to the tab whose reply, run or question this tab's panel tells of (see `waitingWords`). */
export function GoToTabButton({ tabId, testId = 'go-to-waited-tab' }: { tabId: number; testId?: string }) {
  return (
    <button type="button" class="button status-button" data-testid={testId} onClick={() => void showTab(tabId)}>
      Go to that tab
    </button>
  );
}
