import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionMessage } from '../../lib/agent/agent-port-protocol';
import { createProseBatcher } from '../../lib/agent/prose-batcher';

const delta = (text: string, turnId = 'turn-1'): SessionMessage => ({ type: 'prose-delta', tabId: 3, turnId, text });

function batcher(options?: Parameters<typeof createProseBatcher>[1]) {
  const sent: SessionMessage[] = [];
  return { sent, batcher: createProseBatcher((_tabId, message) => sent.push(message), options) };
}

describe('the prose batcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the deltas of one interval as one message', () => {
    const { sent, batcher: prose } = batcher({ intervalMs: 30 });
    for (const text of ['Hel', 'lo', ', ', 'world']) prose.publish(3, delta(text));
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(30);
    expect(sent).toEqual([delta('Hello, world')]);
    prose.publish(3, delta('!'));
    vi.advanceTimersByTime(30);
    expect(sent).toEqual([delta('Hello, world'), delta('!')]);
  });

  it('sends waiting prose before any other message, so the order never changes', () => {
    const { sent, batcher: prose } = batcher();
    prose.publish(3, delta('Looking.'));
    const card: SessionMessage = { type: 'turn', tabId: 3, turn: { id: 'turn-1', request: 'find', items: [], startedAt: 1 } };
    prose.publish(3, card);
    expect(sent).toEqual([delta('Looking.'), card]);
    vi.runAllTimers();
    expect(sent).toHaveLength(2);
  });

  it('never joins prose of two turns, and sends a long batch at once', () => {
    const { sent, batcher: prose } = batcher({ maxCharacters: 10 });
    prose.publish(3, delta('first', 'turn-1'));
    prose.publish(3, delta('second', 'turn-2'));
    expect(sent).toEqual([delta('first', 'turn-1')]);
    prose.publish(3, delta('-and-more', 'turn-2'));
    expect(sent).toEqual([delta('first', 'turn-1'), delta('second-and-more', 'turn-2')]);
  });

  it('keeps each tab to itself', () => {
    const { sent, batcher: prose } = batcher();
    prose.publish(3, delta('three'));
    prose.publish(4, { type: 'prose-delta', tabId: 4, turnId: 'turn-9', text: 'four' });
    prose.flush(4);
    expect(sent).toEqual([{ type: 'prose-delta', tabId: 4, turnId: 'turn-9', text: 'four' }]);
    prose.flush(3);
    expect(sent.at(-1)).toEqual(delta('three'));
  });
});
