import { describe, expect, it } from 'vitest';
import { errorMessage } from '@/lib/messaging/error-message';

describe('errorMessage', () => {
  it("is an error's message, or the thrown value as text", () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorMessage('stopped')).toBe('stopped');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ name: 'AbortError', message: 'The call was aborted.' })).toBe('The call was aborted.');
  });

  it('never throws, even for an object whose message or toString throws', () => {
    const throwingMessage = {
      get message(): string {
        throw new Error('gotcha');
      },
    };
    const throwingText = {
      toString(): string {
        throw new Error('gotcha');
      },
    };
    expect(errorMessage(throwingMessage)).toBe('Unknown error');
    expect(errorMessage(throwingText)).toBe('Unknown error');
    expect(errorMessage(Object.create(null))).toBe('Unknown error');
  });
});
