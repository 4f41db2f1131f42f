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
    expect(stored?.kind === 'prose' && stored.text.length).toBe(storedProseCharacters);
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
  });
});
