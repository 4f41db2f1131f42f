import { changingCallRan } from './changing-call-ran';
import { closeOpenCards } from './close-open-cards';
import type { Turn } from './session-state';
import type { StoredConversation, StoredSession } from './session-store';
import { noticeFor } from './turn-notices';
import { unfinishedRequestNote } from './unfinished-request-note';
import { withExchange } from './with-exchange';

/** A session as a new worker takes it up: a run that was going when the worker stopped is marked interrupted. */
export function restoredSession(stored: StoredSession, now: number): StoredSession {
  const { previous, ...current } = stored;
  return {
    ...restoredConversation(current, now),
    ...(previous === undefined ? {} : { previous: restoredConversation(previous, now) }),
  };
}

function restoredConversation(stored: StoredConversation, now: number): StoredConversation {
  const { turns, history, historyOrigin, historyReadUntrusted, runGoingOn, turnsLeftOut } = stored;
  const ended = turns.map((turn) => interruptIfRunning(turn, now));
  // The run the worker stopped under: the model reads that it ended and what its tools did, as
  // after Stop, so "continue" means something and nothing done is done again.
  const cut = runGoingOn ? ended.find((turn, index) => turn !== turns[index]) : undefined;
  const cutReadUntrusted = cut !== undefined && runGoingOn!.readUntrusted && cut.items.some((item) => item.kind === 'tool');
  return {
    turns: ended,
    history: cut ? withExchange(history, cut.request, { role: 'assistant', content: unfinishedRequestNote(cut) }) : history,
    ...(historyOrigin === undefined ? {} : { historyOrigin }),
    ...(historyReadUntrusted || cutReadUntrusted ? { historyReadUntrusted: true } : {}),
    ...(turnsLeftOut ? { turnsLeftOut } : {}),
  };
}

function interruptIfRunning(turn: Turn, now: number): Turn {
  if (turn.outcome) return turn;
  const closed = closeOpenCards(turn, 'interrupted');
  // A call that may have changed the page makes "ask again" a way to make it twice: the notice says
  // to look first, as the call's card does.
  return { ...closed, outcome: 'interrupted', notice: noticeFor('interrupted', changingCallRan(closed)?.name), endedAt: now };
}
