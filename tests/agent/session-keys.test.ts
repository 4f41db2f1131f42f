import { describe, expect, it } from 'vitest';
import { itemKeyParts, itemPrefix, keyOf, keyParts, turnPrefix } from '../../lib/agent/session-keys';

const turnId = '0f8e2a6c-1b7d-4c3e-9a52-6d1f0b8c7e44';

describe('the keys a tab’s conversation takes in session storage', () => {
  it('names a tab’s entry, its turns and their items, a negative tab id too', () => {
    expect(keyOf({ tabId: 7 })).toBe('session:agentSession:7');
    expect(keyOf({ tabId: 7, turnId })).toBe(`session:agentTurn:7:${turnId}`);
    expect(keyOf({ tabId: -1, turnId, item: 2 })).toBe(`session:agentItem:-1:${turnId}:2`);
  });

  it('reads back the tab, turn and index of every key it writes', () => {
    for (const change of [{ tabId: 7, turnId, item: 0 }, { tabId: -1, turnId, item: 12 }, { tabId: 0, turnId: 'a:b', item: 3 }]) {
      expect(itemKeyParts(keyOf(change).slice(`session:${itemPrefix}`.length))).toEqual(change);
    }
    expect(keyParts(keyOf({ tabId: 7, turnId }).slice(`session:${turnPrefix}`.length))).toEqual({ tabId: 7, turnId });
  });

  it('reads nothing from a tab id or index spelt other than as it writes them', () => {
    for (const tab of ['01', '1e0', ' 1', '0x1', '', 'x']) expect(keyParts(`${tab}:${turnId}`)).toEqual({});
    for (const index of ['01', '1e0', ' 1', '0x1', '', '1.5']) expect(itemKeyParts(`7:${turnId}:${index}`)).toEqual({});
  });
});
