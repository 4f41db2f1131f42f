import { describe, expect, it } from 'vitest';
import { replayServerMessageSchema } from '@/lib/traces/trace-protocol';

describe('a replayed call that waits for the person', () => {
  it('keeps an argument named "__proto__" on its way to the viewer', () => {
    // JSON makes "__proto__" a key like any other, as the model's arguments bring it.
    const args = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;
    const call = { step: 1, callId: '1.1', name: 'search', arguments: args, reason: 'not-read-only', origin: 'https://a.example' };
    const message = replayServerMessageSchema().parse({ type: 'confirm-request', call });
    if (message.type !== 'confirm-request') throw new Error(message.type);
    expect(Object.hasOwn(message.call.arguments, '__proto__')).toBe(true);
    expect(JSON.stringify(message.call.arguments)).toBe('{"__proto__":1,"a":2}');
  });

  it('still refuses arguments that are not an object', () => {
    const call = { step: 1, callId: '1.1', name: 'search', arguments: ['blue'], reason: 'not-read-only', origin: 'https://a.example' };
    expect(replayServerMessageSchema().safeParse({ type: 'confirm-request', call }).success).toBe(false);
  });
});
