import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { whyNotSent } from './chat-input';
import { fillRequestBox } from './focus-request-box';

/**
 * Requests the page's tools make likely. A chip names what a tool does ("Search products"), not
 * the whole request: a click puts it in the request box for the person to finish, and sends nothing.
 */
export function SuggestionChips({ model }: { model: PanelModel }) {
  const suggestions = model.shell.value?.suggestions ?? [];
  if (suggestions.length === 0 || model.running.value || model.shell.value?.agentOff || model.tabClosed.value) return null;
  const canSend = model.canSend.value;
  // Greyed out, a chip says why when pointed at (the engine cannot run here, say), as the request box does.
  const why = canSend ? undefined : model.connection.value !== 'connected' ? 'The panel is connecting to the extension.' : whyNotSent(model);
  return (
    <div class="suggestions" role="group" aria-label="Suggestions">
      {suggestions.map((suggestion) => (
        <button
          key={suggestion}
          type="button"
          class="chip"
          // A tool's title in Hebrew or Arabic keeps its question mark at its end.
          dir="auto"
          data-testid="suggestion"
          disabled={!canSend}
          title={why}
          onClick={() => fillRequestBox(withSuggestion(model.draft.value, suggestion, suggestions), model.setDraft)}
        >
          {suggestion}
        </button>
      ))}
    </div>
  );
}

/**
 * The request box with a chip's words: in place of nothing, or of another chip's words left as
 * they were; after what the person wrote, which is never lost.
 */
function withSuggestion(draft: string, suggestion: string, suggestions: readonly string[]): string {
  const untouched = draft.trim() === '' || suggestions.some((other) => draft === `${other} `);
  return untouched ? `${suggestion} ` : `${draft.trimEnd()} ${suggestion} `;
}
