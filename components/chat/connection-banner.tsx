import type { PanelModel } from '@/lib/sidepanel/panel-model';

/** Shown while the port to the background is down (the service worker restarts), so the panel never looks frozen. */
export function ConnectionBanner({ model }: { model: PanelModel }) {
  const connection = model.connection.value;
  if (connection === 'connected') return null;
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
