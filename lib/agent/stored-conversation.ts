import type { ActiveRun } from './active-run';
import type { SessionHistory } from './session-history';
import type { StoredConversation } from './session-store';
import type { Turn } from './session-state';

/**
 * What outlives the service worker of a tab's conversation (number `generation`), with `active` the
 * run going on in the tab; `turnsLeftOut`, the first turns a worker before this one did not get back.
 */
export function storedConversation(active: ActiveRun | undefined, turns: Turn[], history: SessionHistory, generation: number, turnsLeftOut = 0): StoredConversation {
  return {
    turns,
    ...(turnsLeftOut > 0 ? { turnsLeftOut } : {}),
    ...history.stored(),
    // Should the worker stop under this run, the next one writes its exchange into the history
    // as this one would have (see `createSessionStore`'s `load`).
    ...(active?.remembered && active.generation === generation ? { runGoingOn: { readUntrusted: active.readUntrusted } } : {}),
  };
}
