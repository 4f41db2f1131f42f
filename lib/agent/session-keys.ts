/**
 * The names of the keys a tab's conversation takes in session storage: `agentSession:<tab id>`,
 * `agentTurn:<tab id>:<turn id>` and `agentItem:<tab id>:<turn id>:<index>` (why a chat is split
 * so: see `createSessionStore`).
 *
 * Earlier builds kept every tab in one item (`agentSessions`), then each tab's whole chat under its
 * key, which nothing reads: updating or reloading the extension clears session storage, so a build
 * never finds another build's chats, and a key that does not read is removed at the next write.
 */
export const sessionPrefix = 'agentSession:';
export const turnPrefix = 'agentTurn:';
export const itemPrefix = 'agentItem:';
const sessionKey = (tabId: number) => `session:${sessionPrefix}${tabId}` as const;
const turnKey = (tabId: number, turnId: string) => `session:${turnPrefix}${tabId}:${turnId}` as const;
const itemKey = (tabId: number, turnId: string, index: number) => `session:${itemPrefix}${tabId}:${turnId}:${index}` as const;

/** One key a write sets or removes: a tab's entry, one of its turns (`turnId`), or an item of that turn (`item`, its index). */
export interface KeyChange {
  tabId: number;
  turnId?: string;
  item?: number;
  value?: unknown;
}

export function keyOf({ tabId, turnId, item }: KeyChange): `session:${string}` {
  if (turnId === undefined) return sessionKey(tabId);
  return item === undefined ? turnKey(tabId, turnId) : itemKey(tabId, turnId, item);
}

/**
 * A tab id or an item's index as a key writes it. Only that spelling: `01`, `1e0`, ` 1` or `0x1`
 * would read as 1, yet the key written for 1 is another, so such a key would stand in for the real
 * one and never be removed.
 */
export function numberIn(text: string): number | undefined {
  const number = Number(text);
  return Number.isSafeInteger(number) && String(number) === text ? number : undefined;
}

/** The tab and turn a turn's key names, after its prefix: `7:<turn id>`. */
export function keyParts(rest: string): { tabId?: number; turnId?: string } {
  const colon = rest.indexOf(':');
  const tabId = colon > 0 ? numberIn(rest.slice(0, colon)) : undefined;
  return tabId === undefined ? {} : { tabId, turnId: rest.slice(colon + 1) };
}

/** The tab, turn and index an item's key names, after its prefix: `7:<turn id>:2`. */
export function itemKeyParts(rest: string): { tabId?: number; turnId?: string; item?: number } {
  const colon = rest.lastIndexOf(':');
  const item = colon > 0 ? numberIn(rest.slice(colon + 1)) : undefined;
  return item === undefined ? {} : { ...keyParts(rest.slice(0, colon)), item };
}
