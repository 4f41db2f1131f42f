import { describe, expect, it } from 'vitest';
import { turnItemSchema } from '@/lib/agent/session-state';

describe('a tool card', () => {
  it('keeps an argument named "__proto__" for the panel to show', () => {
    // JSON makes "__proto__" a key like any other, as the model's arguments bring it.
    const args = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;
    const card = turnItemSchema().parse({ kind: 'tool', callId: '1.1', name: 'search', arguments: args, state: 'waiting' });
    if (card.kind !== 'tool') throw new Error(card.kind);
    expect(Object.hasOwn(card.arguments, '__proto__')).toBe(true);
    expect(JSON.stringify(card.arguments)).toBe('{"__proto__":1,"a":2}');
  });

  it('still refuses arguments that are not an object', () => {
    expect(turnItemSchema().safeParse({ kind: 'tool', callId: '1.1', name: 'search', arguments: ['blue'], state: 'waiting' }).success).toBe(false);
    expect(turnItemSchema().safeParse({ kind: 'tool', callId: '1.1', name: 'search', arguments: 'blue', state: 'waiting' }).success).toBe(false);
  });
});
