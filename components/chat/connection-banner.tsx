import { useEffect, useState } from 'preact/hooks';
import type { PanelModel } from '@/lib/sidepanel/panel-model';

/**
 * How long a lost connection may last before the panel says so. Chrome stops an idle service
 * worker every 30 s and the panel's reconnect wakes it within a moment: that gap is routine, and a
 * banner flashing (and announced) every half minute would only alarm.
 */
export const reconnectNoticeDelayMs = 1_500;

/** Shown while the port to the background stays down (the service worker restarts), so the panel never looks frozen. */
export function ConnectionBanner({ model }: { model: PanelModel }) {
  const connection = model.connection.value;
  const [overdue, setOverdue] = useState(false);
  useEffect(() => {
    setOverdue(false);
    if (connection === 'connected') return;
    const timer = setTimeout(() => setOverdue(true), reconnectNoticeDelayMs);
    return () => clearTimeout(timer);
  }, [connection]);
  if (connection === 'connected' || !overdue) return null;
  if (connection === 'reconnecting') {
    return (
      <div class="banner banner-warning" data-testid="reconnecting" role="status">
        <span class="spinner" aria-hidden="true" /> Reconnecting…
      </div>
    );
  }
  return (
    <div class="banner" role="status">
      <span class="spinner" aria-hidden="true" /> Connecting…
    </div>
  );
}
