import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSessionStore, type StoredSession } from '../../lib/agent/session-store';
import type { Turn } from '../../lib/agent/session-state';
import { sessionStorageBytes } from '../../lib/text/session-storage-bytes';

function turnWith(id: string, prose: string): Turn {
  return { id, request: `request ${id}`, items: [{ kind: 'prose', text: prose }], startedAt: 1, outcome: 'answer', endedAt: 2 };
}

const session = (...turns: Turn[]): StoredSession => ({ turns, history: [{ role: 'user', content: 'hello' }] });
const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
/** What Chrome counts the keys and values of session storage as: each one an entry of an object, less the entry. */
const countedByChrome = (items: Record<string, unknown>) => sessionStorageBytes(items) - 64 * Object.keys(items).length;

/** Each tab's conversation as a worker started now would find it in session storage, by tab. */
async function storedChats(): Promise<Record<string, StoredSession>> {
  return Object.fromEntries(await createSessionStore(() => new Map()).load());
}

/** The keys each write to session storage set, one list a write. */
function watchWrites(): () => string[][] {
  const set = vi.spyOn(fakeBrowser.storage.session, 'set');
  return () => set.mock.calls.map(([items]) => Object.keys(items));
}

/** The bytes each write to session storage set, as JSON, one number a write. */
function watchWrittenBytes(): () => number[] {
  const set = vi.spyOn(fakeBrowser.storage.session, 'set');
  return () => set.mock.calls.map(([items]) => utf8Bytes(items));
}

describe('the conversations in session storage, one key a tab and one a turn', () => {
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
    expect(writes()).toEqual([['agentSession:2', 'agentTurn:2:c', 'agentItem:2:c:0']]);
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
    // Read back with the count of the turns left out, which the panel says.
    expect(stored['1']!.turnsLeftOut).toBe(1);
    expect(stored['2']!.turns.map((turn) => turn.id)).toEqual(['d', 'e']);
    expect(stored['2']!.turnsLeftOut).toBeUndefined();
    expect(utf8Bytes(await fakeBrowser.storage.session.get(null))).toBeLessThanOrEqual(budget);
    expect(Object.keys(await fakeBrowser.storage.session.get(null))).not.toContain('agentTurn:1:a');
  });

  it('counts the keys within the budget too: a long chat of short turns, each with keys of its own, still fits in storage', async () => {
    // Turn ids are UUIDs, as the tabs give them; each short turn's keys weigh about as much as what they hold.
    const turns = Array.from({ length: 300 }, () => turnWith(crypto.randomUUID(), 'Yes.'));
    const sessions = new Map([[1, session(...turns)]]);
    const budget = 50_000;
    await createSessionStore(() => sessions, { budget }).flush();
    const stored = (await storedChats())['1']!.turns;
    // Chrome counts each turn as about 800 bytes, where its JSON takes 250.
    expect(stored.length).toBeGreaterThan(50);
    expect(stored).toEqual(turns.slice(-stored.length));
    expect(countedByChrome(await fakeBrowser.storage.session.get(null))).toBeLessThanOrEqual(budget);
    expect(utf8Bytes(await fakeBrowser.storage.session.get(null))).toBeLessThan(budget / 2);
  });

  it('keeps a turn the budget brings back while the write that left it out is still going: a new worker finds the whole chat', async () => {
    const long = 'é'.repeat(150_000);
    const sessions = new Map([[1, session(turnWith('a', long), turnWith('b', long), turnWith('c', long))]]);
    const store = createSessionStore(() => sessions, { budget: 1_000_000 });
    await store.flush();
    // The write that leaves out tab 1's oldest turn is slow to remove it; meanwhile tab 2 closes.
    const remove = fakeBrowser.storage.session.remove.bind(fakeBrowser.storage.session);
    vi.spyOn(fakeBrowser.storage.session, 'remove').mockImplementationOnce(async (keys) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await remove(keys);
    });
    sessions.set(2, session(turnWith('d', long)));
    const leftOut = store.flush();
    sessions.delete(2);
    await Promise.all([leftOut, store.flush()]);
    expect((await storedChats())['1']!.turns.map((turn) => turn.id)).toEqual(['a', 'b', 'c']);
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
    expect(writes()).toEqual([['agentSession:2', 'agentTurn:2:r']]);

    // The next worker reads the run as it was marked, not marked again.
    const again = await createSessionStore(() => new Map()).load(200);
    expect(again.get(2)!.turns[0]).toMatchObject({ outcome: 'interrupted', endedAt: 100 });
    expect(again.get(1)).toEqual(before.get(1));
  });

  it('removes the keys of a tab that is gone, and of one that does not read: an older build\'s whole chat, a turn no entry names, an entry naming a turn storage lacks', async () => {
    await fakeBrowser.storage.session.set({
      'agentSession:3': { turns: 'not a list' },
      // How the build before kept a chat: every turn inside the tab's key.
      'agentSession:4': session(turnWith('old', 'Kept whole.')),
      'agentTurn:5:lost': turnWith('lost', 'Named by no entry.'),
      'agentSession:6': { turns: ['missing'], history: [] },
    });
    const sessions = new Map([[1, session(turnWith('a', 'Hello.'))], [2, session(turnWith('b', 'Hi.'))]]);
    const store = createSessionStore(() => sessions);
    expect([...(await store.load()).keys()]).toEqual([]);
    await store.flush();
    sessions.delete(1);
    await store.flush();
    expect(Object.keys(await storedChats())).toEqual(['2']);
    expect(Object.keys(await fakeBrowser.storage.session.get(null)).sort()).toEqual(['agentItem:2:b:0', 'agentSession:2', 'agentTurn:2:b']);
  });

  it('while a reply streams in a long chat, writes only the streaming turn; a worker stopped then shows the whole chat and the reply so far', async () => {
    const result = 'x'.repeat(100_000);
    const settled = Array.from({ length: 10 }, (_, index): Turn => ({
      ...turnWith(`t${index}`, `Answer ${index}.`),
      items: [{ kind: 'tool', callId: `c${index}`, name: 'list_orders', arguments: {}, state: 'done', result }],
    }));
    let streaming: Turn = { id: 'live', request: 'which week?', items: [{ kind: 'prose', text: 'Week' }], startedAt: 3 };
    let current: StoredSession = { ...session(...settled, streaming), runGoingOn: { readUntrusted: false } };
    const store = createSessionStore(() => new Map([[1, current]]));
    await store.flush();

    const writes = watchWrites();
    const bytes = watchWrittenBytes();
    for (const more of [' 12', ' had', ' the most']) {
      const text = (streaming.items[0] as { text: string }).text + more;
      streaming = { ...streaming, items: [{ kind: 'prose', text }] };
      current = { ...current, turns: [...settled, streaming] };
      await store.flush();
    }
    expect(writes()).toEqual([['agentItem:1:live:0'], ['agentItem:1:live:0'], ['agentItem:1:live:0']]);
    // The chat is over a megabyte; each write holds the streaming turn alone.
    expect(Math.max(...bytes())).toBeLessThan(500);

    const restored = (await createSessionStore(() => new Map()).load(10)).get(1)!;
    expect(restored.turns.slice(0, -1)).toEqual(settled);
    expect(restored.turns.at(-1)).toMatchObject({ id: 'live', items: [{ kind: 'prose', text: 'Week 12 had the most' }], outcome: 'interrupted', endedAt: 10 });
    // The model reads that the request ended, as after Stop.
    expect(restored.history.map((message) => message.content)).toEqual(['hello', 'which week?', expect.stringContaining('ended before it was finished')]);
  });

  it('while prose streams after a long tool result in the same turn, writes only that prose, never the result again', async () => {
    const card: Turn['items'][number] = { kind: 'tool', callId: 'c1', name: 'list_orders', arguments: { week: 12 }, state: 'done', result: 'x'.repeat(20_000), durationMs: 40 };
    let streaming: Turn = { id: 'live', request: 'which week?', items: [{ kind: 'prose', text: 'Looking it up.' }, card, { kind: 'prose', text: '' }], startedAt: 3 };
    let current: StoredSession = { ...session(streaming), runGoingOn: { readUntrusted: false } };
    const store = createSessionStore(() => new Map([[1, current]]));
    await store.flush();

    const writes = watchWrites();
    const bytes = watchWrittenBytes();
    for (const more of ['Week 12', ' had', ' the most.']) {
      const [before, tool, prose] = streaming.items as [Turn['items'][number], Turn['items'][number], { kind: 'prose'; text: string }];
      streaming = { ...streaming, items: [before, tool, { kind: 'prose', text: prose.text + more }] };
      current = { ...current, turns: [streaming] };
      await store.flush();
    }
    expect(writes()).toEqual([['agentItem:1:live:2'], ['agentItem:1:live:2'], ['agentItem:1:live:2']]);
    // The result is 20,000 characters; each write holds the streaming prose alone.
    expect(Math.max(...bytes())).toBeLessThan(200);
    const restored = (await createSessionStore(() => new Map()).load(10)).get(1)!;
    expect(restored.turns[0]!.items).toEqual([{ kind: 'prose', text: 'Looking it up.' }, card, { kind: 'prose', text: 'Week 12 had the most.' }]);
  });

  it('a new worker finds every turn as it was, after a step whose prose was taken back, and drops a chat one of whose parts does not read', async () => {
    const card: Turn['items'][number] = { kind: 'tool', callId: 'c1', name: 'add_to_cart', arguments: { id: 7 }, state: 'done', result: 'Added.' };
    const done: Turn = { ...turnWith('a', 'Two mugs are in stock.'), runId: 'run-a' };
    let live: Turn = { id: 'b', request: 'add the blue one', items: [{ kind: 'prose', text: 'Adding' }, card, { kind: 'prose', text: 'Added the' }], startedAt: 4 };
    let current: StoredSession = { ...session(done, live), historyOrigin: 'https://shop.example', runGoingOn: { readUntrusted: true } };
    const store = createSessionStore(() => new Map([[1, current]]));
    await store.flush();
    // The parse of the whole reply found nothing to say after the card: the streamed prose goes.
    live = { ...live, items: live.items.slice(0, 2), outcome: 'answer', endedAt: 9 };
    current = { turns: [done, live], history: [{ role: 'user', content: 'add the blue one' }, { role: 'assistant', content: 'Added.' }], historyOrigin: 'https://shop.example' };
    await store.flush();
    expect(Object.keys(await fakeBrowser.storage.session.get(null))).not.toContain('agentItem:1:b:2');
    expect((await createSessionStore(() => new Map()).load(20)).get(1)).toEqual(current);

    // A tool card that did not read: the chat is dropped, as one whose turn does not read, and its keys removed.
    await fakeBrowser.storage.session.set({ 'agentItem:1:b:1': { kind: 'tool', result: 7 } });
    const restarted = createSessionStore(() => new Map());
    expect((await restarted.load(30)).size).toBe(0);
    await restarted.flush();
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it('after a worker stopped between setting a turn whose prose was taken back and removing that prose, a new worker shows the turn without it and removes the prose', async () => {
    const card: Turn['items'][number] = { kind: 'tool', callId: 'c1', name: 'add_to_cart', arguments: { id: 7 }, state: 'done', result: 'Added.' };
    let live: Turn = {
      id: 'b',
      request: 'add the blue one',
      items: [{ kind: 'prose', text: 'Adding' }, card, { kind: 'prose', text: 'Added the' }, { kind: 'prose', text: ' blue one' }],
      startedAt: 4,
    };
    let current: StoredSession = { ...session(live), runGoingOn: { readUntrusted: false } };
    const store = createSessionStore(() => new Map([[1, current]]));
    await store.flush();
    // The parse of the whole reply found nothing to say after the card; the worker stops before the prose is removed.
    live = { ...live, items: live.items.slice(0, 2), outcome: 'answer', endedAt: 9 };
    current = { turns: [live], history: [{ role: 'user', content: 'add the blue one' }, { role: 'assistant', content: 'Added.' }] };
    vi.spyOn(fakeBrowser.storage.session, 'remove').mockRejectedValueOnce(new Error('The worker stopped.'));
    await store.flush();
    expect(Object.keys(await fakeBrowser.storage.session.get(null)).sort()).toEqual([
      'agentItem:1:b:0', 'agentItem:1:b:1', 'agentItem:1:b:2', 'agentItem:1:b:3', 'agentSession:1', 'agentTurn:1:b',
    ]);

    let loaded = new Map<number, StoredSession>();
    const restarted = createSessionStore(() => loaded);
    loaded = await restarted.load(20);
    expect(loaded.get(1)).toEqual(current);
    const writes = watchWrites();
    await restarted.flush();
    expect(writes()).toEqual([]);
    expect(Object.keys(await fakeBrowser.storage.session.get(null)).sort()).toEqual(['agentItem:1:b:0', 'agentItem:1:b:1', 'agentSession:1', 'agentTurn:1:b']);
    expect((await storedChats())['1']).toEqual(current);
  });

  it('drops a chat whose turn counts an item storage lacks, keeps the other tabs\' chats, and removes its keys', async () => {
    const card: Turn['items'][number] = { kind: 'tool', callId: 'c1', name: 'list_orders', arguments: {}, state: 'done', result: '3 orders.' };
    const broken: Turn = { ...turnWith('a', 'Looking.'), items: [{ kind: 'prose', text: 'Looking.' }, card, { kind: 'prose', text: 'You have 3 orders.' }] };
    const kept = session(turnWith('b', 'Two mugs are in stock.'));
    await createSessionStore(() => new Map([[1, session(broken)], [2, kept]])).flush();
    await fakeBrowser.storage.session.remove('agentItem:1:a:1');

    let loaded = new Map<number, StoredSession>();
    const restarted = createSessionStore(() => loaded);
    loaded = await restarted.load(20);
    expect([...loaded.keys()]).toEqual([2]);
    expect(loaded.get(2)).toEqual(kept);
    await restarted.flush();
    expect(Object.keys(await fakeBrowser.storage.session.get(null)).sort()).toEqual(['agentItem:2:b:0', 'agentSession:2', 'agentTurn:2:b']);
  });

  it('after a write that failed, the next one sets what it meant to and removes what it meant to: a new worker finds the chat as it is, and nothing of a closed tab', async () => {
    const running: Turn['items'][number] = { kind: 'tool', callId: 'c1', name: 'add_to_cart', arguments: { id: 7 }, state: 'running' };
    let live: Turn = {
      id: 'b',
      request: 'add the blue one',
      items: [{ kind: 'prose', text: 'Adding' }, running, { kind: 'prose', text: 'Added the' }, { kind: 'prose', text: ' blue one' }],
      startedAt: 4,
    };
    const done = turnWith('a', 'Two mugs are in stock.');
    let current: StoredSession = { ...session(done, live), runGoingOn: { readUntrusted: false } };
    const sessions = new Map([[1, current], [2, session(turnWith('c', 'Closed soon.'))]]);
    const store = createSessionStore(() => sessions);
    await store.flush();

    // The card ends, its prose is taken back and tab 2 closes; setting that fails, as storage full would.
    live = { ...live, items: [live.items[0]!, { ...running, state: 'done', result: 'Added.' }], outcome: 'answer', endedAt: 9 };
    current = { turns: [done, live], history: [{ role: 'user', content: 'add the blue one' }, { role: 'assistant', content: 'Added.' }] };
    sessions.set(1, current);
    sessions.delete(2);
    const writes = watchWrites();
    const remove = vi.spyOn(fakeBrowser.storage.session, 'remove');
    vi.spyOn(fakeBrowser.storage.session, 'set').mockRejectedValueOnce(new Error('Session storage quota bytes exceeded.'));
    await store.flush();
    expect(remove).not.toHaveBeenCalled();
    expect((await storedChats())['1']!.turns[1]!.items).toHaveLength(4);

    await store.flush();
    const meant = ['agentSession:1', 'agentTurn:1:b', 'agentItem:1:b:1'];
    expect(writes()).toEqual([meant, meant]);
    expect(remove.mock.calls.flatMap(([keys]) => keys).sort()).toEqual([
      'agentItem:1:b:2', 'agentItem:1:b:3', 'agentItem:2:c:0', 'agentSession:2', 'agentTurn:2:c',
    ]);
    expect(await storedChats()).toEqual({ 1: current });
    expect(Object.keys(await fakeBrowser.storage.session.get(null)).sort()).toEqual([
      'agentItem:1:a:0', 'agentItem:1:b:0', 'agentItem:1:b:1', 'agentSession:1', 'agentTurn:1:a', 'agentTurn:1:b',
    ]);
  });

  it('reads an item or a tab only under the key this build writes for it: a stray key spelling its number otherwise is not shown, and is removed', async () => {
    const chat = session({ ...turnWith('t', 'Two mugs are in stock.'), items: [{ kind: 'prose', text: 'Two mugs' }, { kind: 'prose', text: ' are in stock.' }] });
    await createSessionStore(() => new Map([[1, chat]])).flush();
    const madeUp = { kind: 'prose', text: ' are sold out.' };
    await fakeBrowser.storage.session.set({
      'agentItem:1:t:01': madeUp,
      'agentItem:1:t:1e0': madeUp,
      'agentItem:1:t: 1': madeUp,
      'agentItem:1:t:0x1': madeUp,
      'agentTurn:01:t': { ...turnWith('t', ''), items: 0 },
      'agentSession:01': { turns: [], history: [] },
    });

    let loaded = new Map<number, StoredSession>();
    const restarted = createSessionStore(() => loaded);
    loaded = await restarted.load(20);
    expect(loaded).toEqual(new Map([[1, chat]]));
    await restarted.flush();
    expect(Object.keys(await fakeBrowser.storage.session.get(null)).sort()).toEqual([
      'agentItem:1:t:0', 'agentItem:1:t:1', 'agentSession:1', 'agentTurn:1:t',
    ]);
    expect(await storedChats()).toEqual({ 1: chat });
  });

  it('puts a chat aside for Undo by writing only what names its turns, and a new worker can still bring it back', async () => {
    const long = 'A long answer. '.repeat(10_000);
    const chat = session(turnWith('a', long), turnWith('b', long));
    let current: StoredSession = chat;
    const store = createSessionStore(() => new Map([[1, current]]));
    await store.flush();
    const bytes = watchWrittenBytes();
    current = { turns: [], history: [], previous: chat };
    await store.flush();
    expect(bytes()).toHaveLength(1);
    expect(bytes()[0]).toBeLessThan(500);
    expect((await storedChats())['1']).toEqual({ turns: [], history: [], previous: chat });
  });
});
