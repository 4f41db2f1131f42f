import { describe, expect, it } from 'vitest';
import type { ActiveRun } from '@/lib/agent/active-run';
import { SessionHistory } from '@/lib/agent/session-history';
import { storedConversation } from '@/lib/agent/stored-conversation';

const run = (generation: number, remembered: boolean): ActiveRun => ({
  controller: new AbortController(),
  generation,
  approvals: new Map(),
  readUntrusted: true,
  turnId: 'turn-1',
  ended: Promise.resolve(),
  remembered,
});

describe('what outlives the worker of a conversation', () => {
  it('holds the turns and the history, and no run going on where none is', () => {
    const history = new SessionHistory();
    history.restore({ history: [], historyOrigin: 'https://shop.example' });
    expect(storedConversation(undefined, [], history, 0)).toEqual({ turns: [], history: [], historyOrigin: 'https://shop.example' });
  });

  it('marks a run going on only where it is remembered and of this conversation', () => {
    const history = new SessionHistory();
    expect(storedConversation(run(2, true), [], history, 2).runGoingOn).toEqual({ readUntrusted: true });
    expect(storedConversation(run(2, false), [], history, 2).runGoingOn).toBeUndefined();
    expect(storedConversation(run(1, true), [], history, 2).runGoingOn).toBeUndefined();
  });
});
