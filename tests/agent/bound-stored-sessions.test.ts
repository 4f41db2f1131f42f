import { describe, expect, it } from 'vitest';
import { boundStoredSessions, storedProseCharacters } from '../../lib/agent/bound-stored-sessions';
import type { StoredSession } from '../../lib/agent/session-store';
import type { Turn } from '../../lib/agent/session-state';

function turnWith(id: string, prose: string): Turn {
  return { id, request: `request ${id}`, items: [{ kind: 'prose', text: prose }], startedAt: 1, outcome: 'answer', endedAt: 2 };
}

const session = (...turns: Turn[]): StoredSession => ({ turns, history: [{ role: 'user', content: 'hello' }] });
const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe('the conversations as they are stored', () => {
  it('are stored as they are while they are small', () => {
    const sessions = new Map([[1, session(turnWith('a', 'Two mugs are in your cart.'))]]);
    expect(boundStoredSessions(sessions)).toEqual({ 1: sessions.get(1) });
  });

  it('keep a 1 MB answer cut, saying how much was cut', () => {
    const sessions = new Map([[1, session(turnWith('a', 'x'.repeat(1_000_000)))]]);
    const stored = boundStoredSessions(sessions)['1']!.turns[0]!.items[0];
    expect(stored?.kind === 'prose' && stored.text.length).toBeGreaterThan(storedProseCharacters - 10);
    expect(stored?.kind === 'prose' && stored.text.length).toBeLessThanOrEqual(storedProseCharacters);
    expect(stored?.kind === 'prose' && stored.text).toMatch(/ … \(cut: \d+ more characters\)$/);
  });

  it('past the budget, leave out the oldest turns of the largest conversation, never its last turn', () => {
    const long = 'é'.repeat(150_000);
    const sessions = new Map([
      [1, session(...['a', 'b', 'c', 'd'].map((id) => turnWith(id, long)))],
      [2, session(turnWith('e', long), turnWith('f', 'short'))],
      [3, session(turnWith('g', long))],
    ]);
    const budget = 1_000_000;
    const stored = boundStoredSessions(sessions, budget);
    // Each long turn is 300,000 bytes in UTF-8: the budget holds three of them, and the first
    // tab, which held the most, gives up its three oldest.
    expect(stored['1']!.turns.map((turn) => turn.id)).toEqual(['d']);
    expect(stored['2']!.turns.map((turn) => turn.id)).toEqual(['e', 'f']);
    expect(stored['3']!.turns.map((turn) => turn.id)).toEqual(['g']);
    expect(utf8Bytes(stored)).toBeLessThanOrEqual(budget);
    // Counted, for the panel to say: the chat begins later than it did.
    expect([stored['1']!.turnsLeftOut, stored['2']!.turnsLeftOut, stored['3']!.turnsLeftOut]).toEqual([3, undefined, undefined]);
    // A chat that had lost turns at a worker before counts on from there.
    const again = boundStoredSessions(new Map([[1, { ...session(...['h', 'i', 'j', 'k'].map((id) => turnWith(id, long))), turnsLeftOut: 3 }]]), budget);
    expect(again['1']).toMatchObject({ turnsLeftOut: 4 });
    expect(again['1']!.turns.map((turn) => turn.id)).toEqual(['i', 'j', 'k']);
  });

  it('leave out the turns of a conversation "New chat" put aside first, oldest first, down to all of them', () => {
    const long = 'é'.repeat(150_000);
    const sessions = new Map([
      [1, { ...session(turnWith('e', long)), previous: session(...['a', 'b', 'c', 'd'].map((id) => turnWith(id, long))) }],
      [2, session(turnWith('f', long), turnWith('g', long))],
    ]);
    const budget = 1_550_000;
    const stored = boundStoredSessions(sessions, budget);
    // Each long turn is 300,000 bytes: the budget holds five of the seven. The conversation put
    // aside gives up two.
    expect(stored['1']!.previous!.turns.map((turn) => turn.id)).toEqual(['c', 'd']);
    expect(stored['1']!.turns.map((turn) => turn.id)).toEqual(['e']);
    expect(stored['2']!.turns.map((turn) => turn.id)).toEqual(['f', 'g']);
    expect(stored['1']!.previous!.history).toEqual(sessions.get(1)!.previous!.history);
    expect(utf8Bytes(stored)).toBeLessThanOrEqual(budget);

    // Past any budget, the conversation put aside is left out whole (it costs only the Undo offer),
    // and each live conversation keeps its last turn.
    const tight = boundStoredSessions(sessions, 100_000);
    expect(tight['1']!.previous).toBeUndefined();
    expect(tight['1']!.turns.map((turn) => turn.id)).toEqual(['e']);
    expect(tight['2']!.turns.map((turn) => turn.id)).toEqual(['g']);
  });

  it('leave out a conversation put aside before the live conversation of another tab, even a larger one, loses a turn', () => {
    const long = 'é'.repeat(150_000);
    const sessions = new Map([
      // New chat was pressed in the first tab: its conversation waits for an Undo that may never come.
      [1, { ...session(), previous: session(turnWith('a', long), turnWith('b', long)) }],
      // The second tab holds the most: the conversation the person is having now.
      [2, session(...['c', 'd', 'e', 'f'].map((id) => turnWith(id, long)))],
    ]);
    // The budget holds five of the six long turns: the conversation put aside gives up its older one.
    const five = boundStoredSessions(sessions, 1_550_000);
    expect(five['1']!.previous!.turns.map((turn) => turn.id)).toEqual(['b']);
    expect(five['2']!.turns.map((turn) => turn.id)).toEqual(['c', 'd', 'e', 'f']);
    // The budget holds four: it goes whole, and the live conversation keeps every turn.
    const four = boundStoredSessions(sessions, 1_250_000);
    expect(four['1']).toEqual(session());
    expect(four['2']!.turns.map((turn) => turn.id)).toEqual(['c', 'd', 'e', 'f']);
    expect(utf8Bytes(four)).toBeLessThanOrEqual(1_250_000);
  });

  it('cut the long prose of a conversation put aside too', () => {
    const sessions = new Map([[1, { ...session(), previous: session(turnWith('a', 'x'.repeat(1_000_000))) }]]);
    const stored = boundStoredSessions(sessions)['1']!.previous!.turns[0]!.items[0];
    expect(stored?.kind === 'prose' && stored.text.length).toBeGreaterThan(storedProseCharacters - 10);
    expect(stored?.kind === 'prose' && stored.text.length).toBeLessThanOrEqual(storedProseCharacters);
  });
});
