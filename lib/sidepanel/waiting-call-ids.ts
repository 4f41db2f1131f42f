import type { SessionState } from '../agent/session-state';

/** The calls that wait for the person's answer, in every turn of a session. */
export function waitingCallIds(state: SessionState | undefined): Set<string> {
  const ids = new Set<string>();
  for (const turn of state?.turns ?? []) {
    for (const item of turn.items) {
      if (item.kind === 'tool' && item.state === 'waiting') ids.add(item.callId);
    }
  }
  return ids;
}
