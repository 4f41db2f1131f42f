import { describe, expect, it } from 'vitest';
import { restoredSession } from '../../lib/agent/restored-session';
import type { ToolCard, Turn } from '../../lib/agent/session-state';

const card = (overrides: Partial<ToolCard>): ToolCard => ({ kind: 'tool', callId: 'c1', name: 'add_todo', arguments: { text: 'pay rent' }, state: 'running', sent: true, ...overrides });
const running = (...items: Turn['items']): Turn => ({ id: 't1', request: 'add pay rent', items, startedAt: 1 });
const restoredTurn = (turn: Turn) => restoredSession({ turns: [turn], history: [], runGoingOn: { readUntrusted: false } }, 50).turns[0]!;

describe('a run the worker stopped under, as the next worker takes it up', () => {
  it('is cut off, and may be asked again where no call that changes the page reached it', () => {
    for (const items of [[], [card({ readOnly: true, name: 'list_todos' })], [card({ state: 'waiting', sent: undefined })], [card({ state: 'declined' })]]) {
      expect(restoredTurn(running(...items))).toMatchObject({ outcome: 'interrupted', endedAt: 50, notice: 'This run was cut off when the extension restarted. Ask again to continue.' });
    }
  });

  it('says to check the page first, as its card does, where a call that may change the page reached it: asked again, it could run twice', () => {
    const cut = restoredTurn(running(card({})));
    expect(cut.notice).toBe('This run was cut off when the extension restarted, after a call to "add_todo", which may change the page. Check the page before asking again.');
    expect(cut.items[0]).toMatchObject({ state: 'unanswered', result: expect.stringContaining('Check the page before asking again.') });
    // One that ran to its end earlier in the run changed the page just as well.
    expect(restoredTurn(running(card({ state: 'done', result: 'Added.' }), { kind: 'prose', text: 'Added it' })).notice).toContain('after a call to "add_todo", which may change the page');
  });
});
