import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { applySessionMessage } from '@/lib/agent/apply-session-message';
import type { SessionState } from '@/lib/agent/session-state';
import { sessionShell } from '@/lib/sidepanel/session-shell';
import { sessionState, turn } from './session-fixtures';

describe('sessionShell: the session the panel shows around the conversation', () => {
  const running = () => sessionState({ running: true, turns: [turn({ id: 't1', items: [{ kind: 'prose', text: 'The enamel' }] })] });

  it('stays the same object while a reply streams into the turns, so what reads it does not render again', () => {
    const session = signal<SessionState | undefined>(running());
    const shell = sessionShell(session);
    const before = shell.value;
    let changes = 0;
    const stop = shell.subscribe(() => (changes += 1));
    for (const text of [' mug', ' is', ' the cheapest.']) {
      session.value = applySessionMessage(session.value, { type: 'prose-delta', tabId: session.value!.tabId, turnId: 't1', text });
    }
    expect(shell.value).toBe(before);
    expect(changes).toBe(1);
    expect(shell.value).not.toHaveProperty('turns');
    stop();
  });

  it('changes with any field it shows: the engine, the tools, the site', () => {
    const session = signal<SessionState | undefined>(running());
    const shell = sessionShell(session);
    const before = shell.value!;
    session.value = applySessionMessage(session.value, { type: 'engine', tabId: before.tabId, engine: { ...before.engine, state: 'generating', tokensPerSecond: 21 } });
    expect(shell.value?.engine.tokensPerSecond).toBe(21);
    session.value = { ...session.value!, toolCount: 9 };
    expect(shell.value?.toolCount).toBe(9);
    session.value = undefined;
    expect(shell.value).toBeUndefined();
  });
});
