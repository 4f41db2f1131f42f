import { entryOf, sameSessionEntry, type SessionEntry } from './session-entry';
import type { KeyChange } from './session-keys';
import type { StoredSession } from './session-store';
import { sameTurnHead, turnHeadOf, type TurnHead, type TurnItem } from './stored-turn';
import type { WrittenTab, WrittenTurn } from './written-tabs';

/** A turn as it is to be written: its head, and its items by index. */
interface TurnToWrite {
  head: TurnHead;
  items: Map<number, TurnItem>;
}

/**
 * The keys a write sets and removes to bring storage from what `written` says it holds to the
 * `bounded` sessions: only the keys whose value changed are set, so a reply streaming into a long
 * chat writes its streaming prose alone. A tab no longer in `sessions` loses all its keys.
 *
 * It also updates `written` to what storage holds once this write succeeds; where the write fails,
 * the caller forgets each change, so the next write sets those keys again.
 */
export function planSessionWrite(
  written: Map<number, WrittenTab>,
  sessions: ReadonlyMap<number, StoredSession>,
  bounded: ReadonlyArray<readonly [number, StoredSession]>,
): { sets: KeyChange[]; removes: KeyChange[] } {
  const sets: KeyChange[] = [];
  const removes: KeyChange[] = [];
  for (const [tabId, session] of bounded) {
    const before = written.get(tabId);
    const now = writtenTabOf(session);
    if (before?.entry === undefined || !sameSessionEntry(before.entry, now.entry)) sets.push({ tabId, value: now.entry });
    for (const [turnId, turn] of now.turns) {
      const { sets: turnSets, removes: turnRemoves } = turnChanges(tabId, turnId, before?.turns.get(turnId), turn);
      sets.push(...turnSets);
      removes.push(...turnRemoves);
    }
    for (const [turnId, turn] of before?.turns ?? []) if (!now.turns.has(turnId)) removes.push(...turnKeys(tabId, turnId, turn));
    written.set(tabId, now);
  }
  for (const [tabId, before] of written) {
    if (sessions.has(tabId)) continue;
    removes.push({ tabId }, ...[...before.turns].flatMap(([turnId, turn]) => turnKeys(tabId, turnId, turn)));
    written.delete(tabId);
  }
  return { sets, removes };
}

/**
 * The keys of a turn to set and remove: its head where what it says changed, each item that is not
 * the one written, and the items past its end (a step's prose taken back). By identity: items
 * never change in place, and one that stays the same object, a finished tool card, is never written again.
 */
function turnChanges(tabId: number, turnId: string, before: WrittenTurn | undefined, now: TurnToWrite): { sets: KeyChange[]; removes: KeyChange[] } {
  const sets: KeyChange[] = [];
  if (before?.head === undefined || !sameTurnHead(before.head, now.head)) sets.push({ tabId, turnId, value: now.head });
  for (const [item, value] of now.items) if (before?.items.get(item) !== value) sets.push({ tabId, turnId, item, value });
  const removes = [...(before?.items.keys() ?? [])].filter((item) => !now.items.has(item)).map((item) => ({ tabId, turnId, item }));
  return { sets, removes };
}

/** Every key of a turn: its head and its items. */
function turnKeys(tabId: number, turnId: string, turn: WrittenTurn): KeyChange[] {
  return [{ tabId, turnId }, ...[...turn.items.keys()].map((item) => ({ tabId, turnId, item }))];
}

/**
 * A session as its keys hold it: the entry naming its turns, and the turns (those put aside too)
 * by id, each as its head and its items.
 */
function writtenTabOf({ previous, ...current }: StoredSession): { entry: SessionEntry; turns: Map<string, TurnToWrite> } {
  const turns = new Map(
    [...current.turns, ...(previous?.turns ?? [])].map((turn) => [turn.id, { head: turnHeadOf(turn), items: new Map(turn.items.entries()) }] as const),
  );
  return { entry: { ...entryOf(current), ...(previous === undefined ? {} : { previous: entryOf(previous) }) }, turns };
}
