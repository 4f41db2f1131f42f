import { describe, expect, it } from 'vitest';
import { applySessionMessage } from '@/lib/agent/apply-session-message';
import { sessionState, turn } from './session-fixtures';

describe('a snapshot of the conversation the panel already shows', () => {
  const first = turn({ id: 'turn-1', items: [{ kind: 'prose', text: 'Added two mugs.' }], outcome: 'answer' });
  const second = turn({ id: 'turn-2', request: 'checkout', items: [], startedAt: 2_000 });
  const shown = sessionState({ turns: [first, second] });

  it('keeps the turns that did not change, so the panel renders none of them again', () => {
    const again = structuredClone(shown);
    again.turns[1] = { ...again.turns[1]!, items: [{ kind: 'prose', text: 'Checking out.' }] };
    const next = applySessionMessage(shown, { type: 'snapshot', state: again })!;
    expect(next.turns[0]).toBe(first);
    expect(next.turns[1]).not.toBe(second);
    expect(next.turns[1]!.items).toEqual([{ kind: 'prose', text: 'Checking out.' }]);
  });

  it('takes another tab’s conversation as it comes', () => {
    const other = structuredClone({ ...shown, tabId: 8 });
    expect(applySessionMessage(shown, { type: 'snapshot', state: other })!.turns[0]).not.toBe(first);
  });
});
