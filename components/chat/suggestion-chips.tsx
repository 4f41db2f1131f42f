import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { focusRequestBox } from './focus-request-box';

/** Requests the page's tools make likely; a click sends one. */
export function SuggestionChips({ model }: { model: PanelModel }) {
  const suggestions = model.session.value?.suggestions ?? [];
  if (suggestions.length === 0 || model.running.value || model.session.value?.agentOff) return null;
  const canSend = model.canSend.value;
  return (
    <div class="suggestions" role="group" aria-label="Suggestions">
      {suggestions.map((suggestion) => (
        <button
          key={suggestion}
          type="button"
          class="chip"
          data-testid="suggestion"
          disabled={!canSend}
          onClick={() => {
            model.send(suggestion);
            focusRequestBox();
          }}
        >
          {suggestion}
        </button>
      ))}
    </div>
  );
}
