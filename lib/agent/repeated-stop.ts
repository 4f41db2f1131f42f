import type { AgentEvent } from '@webmcp-agents/local-agent';
import { listed } from '../text/listed';

/**
 * Follows a run's events for the loop's words on a repeated-call stop (the same call, or the same
 * missing tool, a third time). The calls written before it in the same reply ran, and their cards
 * say so: the notice names them too, or the person may think the stop came before anything ran.
 */
export function watchRepeatedStop(): { see(event: AgentEvent): void; readonly notice: string | undefined } {
  // The tools whose calls ran at the step now going, in the order they ran.
  let ranAtStep: string[] = [];
  let notice: string | undefined;
  return {
    see(event) {
      if (event.type === 'step-start') ranAtStep = [];
      if (event.type === 'tool-result') ranAtStep.push(event.name);
      if (event.type === 'tool-error' && event.kind === 'repeated') notice = withCallsThatRan(event.message, ranAtStep);
    },
    get notice() {
      return notice;
    },
  };
}

/** The loop's sentence ("… so the run was stopped.") ending with the tools that ran before the stop, each named once. */
function withCallsThatRan(message: string, ran: readonly string[]): string {
  const names = [...new Set(ran)];
  if (names.length === 0) return message;
  return `${message.replace(/\.$/, '')} after ${listed(names)} ran.`;
}
