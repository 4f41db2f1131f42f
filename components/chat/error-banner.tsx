import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { focusRequestBox } from './focus-request-box';

/** An error the background reported for this panel (a refused request, a failed action). */
export function ErrorBanner({ model }: { model: PanelModel }) {
  const message = model.lastError.value;
  if (!message) return null;
  return (
    <div class="banner banner-error" data-testid="session-error" role="alert">
      <span>{message}</span>
      <button
        type="button"
        class="button-link"
        aria-label="Dismiss"
        onClick={() => {
          model.dismissError();
          // The button goes with the banner: the keyboard goes on in the request box.
          focusRequestBox();
        }}
      >
        ×
      </button>
    </div>
  );
}
