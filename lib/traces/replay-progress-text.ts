// Its own file: the words a replay shows for each agent event, apart from how the replay runs.
import { assertNever } from '@webmcp-agents/chat';
import type { AgentEvent } from '@webmcp-agents/local-agent';

/** The progress line a replay posts for `event`, or nothing for events a line already names. */
export function replayProgressText(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'step-start':
      return `Step ${event.step}: playing the recorded reply`;
    case 'tool-call':
      return `Step ${event.step}: calling ${event.name}`;
    case 'tool-approval-request':
      return `Step ${event.step}: waiting for you to allow ${event.name}`;
    case 'finish':
      return 'Comparing with the recording';
    // These happen within what a line above already names.
    case 'text-delta':
    case 'prose-delta':
    case 'prose-replace':
    case 'tool-approval-response':
    case 'tool-result':
    case 'results-read':
    case 'tool-error':
    case 'step-end':
      return undefined;
    default:
      return assertNever(event);
  }
}
