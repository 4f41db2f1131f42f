import type { KeyChange } from './session-keys';
import type { SessionEntry } from './session-entry';
import type { TurnHead, TurnItem } from './stored-turn';

/**
 * What a tab's keys hold, as last written or read: its entry, and each turn by id, its head and
 * its items by index. Undefined where that is not known (a write that failed, a value that did not
 * read), so that the next write sets or removes it.
 */
export interface WrittenTab {
  entry: SessionEntry | undefined;
  turns: Map<string, WrittenTurn>;
}

export interface WrittenTurn {
  head: TurnHead | undefined;
  items: Map<number, TurnItem | undefined>;
}

export function writtenTab(written: Map<number, WrittenTab>, tabId: number): WrittenTab {
  let tab = written.get(tabId);
  if (tab === undefined) {
    tab = { entry: undefined, turns: new Map() };
    written.set(tabId, tab);
  }
  return tab;
}

export function writtenTurn(written: Map<number, WrittenTab>, tabId: number, turnId: string): WrittenTurn {
  const { turns } = writtenTab(written, tabId);
  let turn = turns.get(turnId);
  if (turn === undefined) {
    turn = { head: undefined, items: new Map() };
    turns.set(turnId, turn);
  }
  return turn;
}

/** After a write that failed, what it would have changed is not known. */
export function forget(written: Map<number, WrittenTab>, { tabId, turnId, item }: KeyChange): void {
  if (turnId === undefined) writtenTab(written, tabId).entry = undefined;
  else if (item === undefined) writtenTurn(written, tabId, turnId).head = undefined;
  else writtenTurn(written, tabId, turnId).items.set(item, undefined);
}
