import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSessionStore, type StoredSession } from '../../lib/agent/session-store';
import type { Turn } from '../../lib/agent/session-state';

function turnWith(id: string, prose: string): Turn {
  return { id, request: `request ${id}`, items: [{ kind: 'prose', text: prose }], startedAt: 1, outcome: 'answer', endedAt: 2 };
}

const session = (...turns: Turn[]): StoredSession => ({ turns, history: [{ role: 'user', content: 'hello' }] });
const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** Each tab's conversation as session storage holds it, by tab. */
async function storedChats(): Promise<Record<string, StoredSession>> {
  const items = await fakeBrowser.storage.session.get(null);
  return Object.fromEntries(
    Object.entries(items).flatMap(([key, value]) => (key.startsWith('agentSession:') ? [[key.slice('agentSession:'.length), value as StoredSession]] : [])),
  );
}

/** The keys each write to session storage set, one list a write. */
function watchWrites(): () => string[][] {
  const set = vi.spyOn(fakeBrowser.storage.session, 'set');
  return () => set.mock.calls.map(([items]) => Object.keys(items));
}

describe('the conversations in session storage, one key a tab', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.restoreAllMocks();
  });

  it('writes a tab again only when its chat changed', async () => {
    const sessions = new Map([
      [1, session(turnWith('a', 'A long chat in another tab.'))],
      [2, session(turnWith('b', 'Two mugs are in stock.'))],
    ]);
    const store = createSessionStore(() => sessions);
    await store.flush();
    const writes = watchWrites();
    sessions.set(2, { ...sessions.get(2)!, turns: [...sessions.get(2)!.turns, turnWith('c', 'The blue one is.')] });
    await store.flush();
    await store.flush();
    expect(writes()).toEqual([['agentSession:2']]);
    expect(Object.keys(await storedChats())).toEqual(['1', '2']);
    expect((await storedChats())['2']!.turns.map((turn) => turn.id)).toEqual(['b', 'c']);
  });

  it('keeps every tab within the one budget: a chat that grows past it makes the largest other chat leave out its oldest turns, in storage too', async () => {
    const long = 'é'.repeat(150_000);
    const sessions = new Map([[1, session(turnWith('a', long), turnWith('b', long), turnWith('c', long))]]);
    const budget = 1_000_000;
    const store = createSessionStore(() => sessions, { budget });
    await store.flush();
    expect((await storedChats())['1']!.turns.map((turn) => turn.id)).toEqual(['a', 'b', 'c']);
    // Each long turn is 300,000 bytes in UTF-8: with the second tab's, the budget holds three of four.
    sessions.set(2, session(turnWith('d', long), turnWith('e', 'short')));
    await store.flush();
    const stored = await storedChats();
    expect(stored['1']!.turns.map((turn) => turn.id)).toEqual(['b', 'c']);
    expect(stored['2']!.turns.map((turn) => turn.id)).toEqual(['d', 'e']);
    expect(utf8Bytes(stored)).toBeLessThanOrEqual(budget);
  });

  it('after a restart, writes again only the chat whose run it marked interrupted, and marks it once', async () => {
    const running: Turn = { id: 'r', request: 'look it up', items: [{ kind: 'prose', text: 'Looking…' }], startedAt: 1 };
    const before = new Map<number, StoredSession>([
      [1, session(turnWith('a', 'Two mugs are in stock.'))],
      [2, { ...session(running), runGoingOn: { readUntrusted: false } }],
    ]);
    await createSessionStore(() => before).flush();

    let loaded = new Map<number, StoredSession>();
    const restarted = createSessionStore(() => loaded);
    loaded = await restarted.load(100);
    expect(loaded.get(2)!.turns[0]).toMatchObject({ outcome: 'interrupted', endedAt: 100 });
    const writes = watchWrites();
    await restarted.flush();
    expect(writes()).toEqual([['agentSession:2']]);

    // The next worker reads the run as it was marked, not marked again.
    const again = await createSessionStore(() => new Map()).load(200);
    expect(again.get(2)!.turns[0]).toMatchObject({ outcome: 'interrupted', endedAt: 100 });
    expect(again.get(1)).toEqual(before.get(1));
  });

  it('removes the key of a tab that is gone, and of one that does not read', async () => {
    await fakeBrowser.storage.session.set({ 'agentSession:3': { turns: 'not a list' } });
    const sessions = new Map([[1, session(turnWith('a', 'Hello.'))], [2, session(turnWith('b', 'Hi.'))]]);
    const store = createSessionStore(() => sessions);
    await store.load();
    await store.flush();
    sessions.delete(1);
    await store.flush();
    expect(Object.keys(await storedChats())).toEqual(['2']);
  });
});
