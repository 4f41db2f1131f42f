import type { PanelModel } from '@/lib/sidepanel/panel-model';
import { ChatInput } from './chat-input';
import { ConnectionBanner } from './connection-banner';
import { EngineErrorBox } from './engine-error-box';
import { Conversation } from './conversation';
import { ErrorBanner } from './error-banner';
import { PanelHeader } from './panel-header';
import { StatusLine } from './status-line';
import { SuggestionChips } from './suggestion-chips';

/** The side panel: one tab's conversation with the agent. */
export function ChatApp({ model }: { model: PanelModel }) {
  const engine = model.session.value?.engine;
  return (
    <div class="panel">
      <PanelHeader model={model} />
      <StatusLine model={model} />
      <ConnectionBanner model={model} />
      <ErrorBanner model={model} />
      {/* Above the scrolled conversation, so a long chat never hides why the model failed. */}
      <EngineErrorBox engine={engine} />
      <Conversation model={model} />
      <div class="composer-area">
        <SuggestionChips model={model} />
        <ChatInput model={model} />
      </div>
    </div>
  );
}
