import { describe, expect, it } from 'vitest';
import { attemptAction } from '../../lib/traces/attempt-action';

describe('attemptAction', () => {
  it('gives what the action gives, and tells nothing', async () => {
    const told: string[] = [];
    expect(await attemptAction(async () => 3, (text) => told.push(text))).toBe(3);
    expect(told).toEqual([]);
  });

  it('tells a failure in words after the prefix, and gives undefined rather than throwing', async () => {
    const told: string[] = [];
    const failing = async (): Promise<number> => {
      throw new Error('the store is closed');
    };
    expect(await attemptAction(failing, (text) => told.push(text), 'Nothing was imported. ')).toBeUndefined();
    expect(told).toEqual(['Nothing was imported. the store is closed']);
  });

  it('catches an action that throws before it returns a promise, and with no one to tell, tells no one', async () => {
    const throwing = (): Promise<number> => {
      throw new Error('no port');
    };
    expect(await attemptAction(throwing)).toBeUndefined();
  });
});
