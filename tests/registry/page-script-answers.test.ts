import { describe, expect, it } from 'vitest';
import { pageScriptAnswers } from '../../lib/registry/page-script-answers';

const nobody = () => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.'));

describe('pageScriptAnswers', () => {
  it('asks again while a document that has just committed gets its content script', async () => {
    let asked = 0;
    // The first two questions come before the script is injected.
    const ask = () => (++asked <= 2 ? nobody() : Promise.resolve({ ok: true }));
    await expect(pageScriptAnswers(1, { ask, settleMs: 2_000, timeoutMs: 3_000 })).resolves.toBe(true);
    expect(asked).toBe(3);
  });

  it('says no script listens once it has not for a while, and yes for a busy page or any other failure', async () => {
    let asked = 0;
    const never = () => {
      asked += 1;
      return nobody();
    };
    await expect(pageScriptAnswers(1, { ask: never, settleMs: 600, timeoutMs: 3_000 })).resolves.toBe(false);
    expect(asked).toBeGreaterThan(1);
    await expect(pageScriptAnswers(1, { ask: () => new Promise(() => {}), timeoutMs: 50 })).resolves.toBe(true);
    await expect(pageScriptAnswers(1, { ask: () => Promise.reject(new Error('The message port closed before a response was received.')) })).resolves.toBe(true);
  });
});
