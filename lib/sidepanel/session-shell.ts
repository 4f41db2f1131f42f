import { computed, type ReadonlySignal } from '@preact/signals';
import type { SessionState } from '../agent/session-state';

/** A tab's session as the panel shows it around the conversation: everything but the turns. */
export type SessionShell = Omit<SessionState, 'turns'>;

/**
 * The session without its turns, kept the same object until one of its fields changes: a reply
 * streams into the turns dozens of times a second, and the header, the status line and the request
 * box, which read this, render again only at another change (the engine's, a snapshot's).
 */
export function sessionShell(session: ReadonlySignal<SessionState | undefined>): ReadonlySignal<SessionShell | undefined> {
  let last: SessionShell | undefined;
  return computed(() => {
    const current = session.value;
    if (current === undefined) return (last = undefined);
    const { turns: _turns, ...shell } = current;
    if (last !== undefined && sameFields(last, shell)) return last;
    return (last = shell);
  });
}

function sameFields(before: SessionShell, now: SessionShell): boolean {
  const keys = Object.keys(now) as (keyof SessionShell)[];
  return keys.length === Object.keys(before).length && keys.every((key) => before[key] === now[key]);
}
