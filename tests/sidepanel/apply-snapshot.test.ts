import { describe, expect, it } from 'vitest';
import { applySessionMessage } from '@/lib/agent/apply-session-message';
import { sessionState, toolCard, turn } from './session-fixtures';

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

describe('a turn sent again whole, as a card of it changes', () => {
  const report = (callId: string) => toolCard({ callId, name: 'big_report', state: 'done', result: JSON.stringify({ rows: Array.from({ length: 50 }, (_, row) => row) }) });
  const shown = sessionState({ running: true, turns: [turn({ id: 'run', items: [report('1.1'), { kind: 'prose', text: 'Reading page 2.' }, toolCard({ callId: '1.2', state: 'running' })] })] });

  it('keeps the items that did not change, so only the changed card renders again', () => {
    const again = structuredClone(shown.turns[0]!);
    again.items[2] = { ...again.items[2]!, state: 'done', result: '{"rows":[]}' } as typeof again.items[2];
    const next = applySessionMessage(shown, { type: 'turn', tabId: shown.tabId, turn: again })!;
    const [before] = shown.turns;
    expect(next.turns[0]!.items[0]).toBe(before!.items[0]);
    expect(next.turns[0]!.items[1]).toBe(before!.items[1]);
    expect(next.turns[0]!.items[2]).toMatchObject({ state: 'done', result: '{"rows":[]}' });
    expect(next.turns[0]).not.toBe(before);
  });
});
