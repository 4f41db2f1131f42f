import type { Divergence } from './divergence-schema';
import type { ReplayConfirmRequest, ReplayServerMessage } from './trace-protocol';

/** Where the viewer's replay of the open run stands. */
export type ReplayState =
  /** `cancelled`: the person cancelled the last replay (what it ran before stays done). */
  | { status: 'idle'; cancelled?: true }
  | { status: 'running'; progress: string; confirm?: ReplayConfirmRequest }
  | {
      status: 'done';
      finishReason: string;
      stepCount: number;
      divergences: Divergence[];
      stopped?: string;
      /** Where and when it ran: the panel keeps the result as the tabs change, and says of what it was. */
      ran?: { url: string; at: number };
    }
  | { status: 'failed'; message: string };

/** The state after the background's next word on the replay. */
export function replayStateAfter(message: ReplayServerMessage): ReplayState {
  switch (message.type) {
    case 'progress':
      return { status: 'running', progress: message.text };
    case 'confirm-request':
      return { status: 'running', progress: `Waiting for you to allow ${message.call.name} on ${message.call.origin}`, confirm: message.call };
    case 'done':
      return { status: 'done', finishReason: message.finishReason, stepCount: message.stepCount, divergences: message.divergences, ...(message.stopped ? { stopped: message.stopped } : {}) };
    case 'failed':
      return { status: 'failed', message: message.error.message };
  }
}
