import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { PanelModel } from '@/lib/sidepanel/panel-model';

/**
 * How long a lost connection may last before the panel says so. Chrome stops an idle service
 * worker every 30 s and the panel's reconnect wakes it within a moment: that gap is routine, and a
 * banner flashing (and announced) every half minute would only alarm.
 */
const reconnectNoticeDelayMs = 1_500;

/** Shown while the port to the background stays down (the service worker restarts), so the panel never looks frozen. */
export function ConnectionBanner({ model }: { model: PanelModel }) {
  const connection = model.connection.value;
  const overdue = useSignal(false);
  useEffect(() => {
    overdue.value = false;
    if (connection === 'connected') return;
    const timer = setTimeout(() => {
      overdue.value = true;
    }, reconnectNoticeDelayMs);
    return () => clearTimeout(timer);
  }, [connection]);
  const shown = connection !== 'connected' && overdue.value;
  // The live region stays in the panel and only its words change: one added with its words
  // already in it is often not read out.
  return (
    <div role="status" class="connection-status">
      {shown && connection === 'reconnecting' && (
        <div class="banner banner-warning" data-testid="reconnecting">
          <span class="spinner" aria-hidden="true" /> Reconnecting…
        </div>
      )}
      {shown && connection !== 'reconnecting' && (
        <div class="banner">
          <span class="spinner" aria-hidden="true" /> Connecting…
        </div>
      )}
    </div>
  );
}
