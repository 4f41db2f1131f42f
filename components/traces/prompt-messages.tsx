import { HiddenCharacters } from '@/components/shared/json-text';
import type { TraceMessage } from '@/lib/traces/trace-schema';

/** The prompt exactly as the engine was given it, one message a block. */
export function PromptMessages({ messages }: { messages: readonly TraceMessage[] }) {
  if (messages.length === 0) return <p class="muted">The prompt was not recorded.</p>;
  return (
    <ol class="prompt-messages" data-testid="prompt-messages">
      {messages.map((message, index) => (
        <li key={index} data-testid="prompt-message" data-role={message.role}>
          <details open={message.role !== 'system'}>
            <summary>
              <span class="role">{message.role}</span> <span class="muted">{message.content.length.toLocaleString('en-US')} characters</span>
            </summary>
            <pre class="message-content" role="group" aria-label={`${message.role} message`}>
              <HiddenCharacters text={message.content} />
            </pre>
          </details>
        </li>
      ))}
    </ol>
  );
}
