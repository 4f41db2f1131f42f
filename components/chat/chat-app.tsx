import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { ChatInput } from './chat-input';
import { ConnectionBanner } from './connection-banner';
import { Conversation } from './conversation';
import { ErrorBanner } from './error-banner';
import { PanelHeader } from './panel-header';
import { StatusLine } from './status-line';
import { SuggestionChips } from './suggestion-chips';

/** The side panel: one tab's conversation with the agent. */
export function ChatApp({ model }: { model: PanelModel }) {
  return (
    <div class="panel">
      <PanelHeader model={model} />
      <StatusLine model={model} />
      <ConnectionBanner model={model} />
      <ErrorBanner model={model} />
      <Conversation model={model} />
      <div class="composer-area">
        <SuggestionChips model={model} />
        <ChatInput model={model} />
      </div>
    </div>
  );
}
