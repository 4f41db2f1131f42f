// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeChannel, listenAsBridge, postToExtension } from '@/lib/messaging/bridge-wire';
import { createBridgeSource } from '@/lib/webmcp/bridge-source';

const stops: Array<() => void> = [];
// happy-dom's own postMessage names a different object as the source; a browser names the window.
beforeEach(() => {
  vi.spyOn(window, 'postMessage').mockImplementation((data: unknown) => {
    setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data, source: window as unknown as MessageEventSource })));
  });
});
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.restoreAllMocks();
});

/** Waits for window messages (delivered as tasks) to arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A stand-in for the page-world bridge: answers calls with what `answer` says. */
function fakeBridge(answer: (name: string) => { result: string } | { error: string }) {
  const seen: unknown[] = [];
  stops.push(
    listenAsBridge((message) => {
      seen.push(message);
      const call = message as { type: string; callId: string; name: string };
      if (call.type !== 'call-start') return;
      const outcome = answer(call.name);
      if ('result' in outcome) postToExtension({ type: 'call-result', callId: call.callId, result: outcome.result });
      else postToExtension({ type: 'call-error', callId: call.callId, error: { name: 'Error', message: outcome.error } });
    }),
  );
  return seen;
}

function forge(message: unknown): void {
  window.postMessage({ channel: bridgeChannel, direction: 'to-extension', message }, '*');
}

describe('the content script’s half of the bridge', () => {
  it('asks the page-world bridge to start, and takes its tool lists as polyfill tools', async () => {
    const seen = fakeBridge(() => ({ result: 'x' }));
    const source = createBridgeSource();
    let changes = 0;
    source.watch(() => (changes += 1));
    postToExtension({ type: 'bridge-ready' });
    postToExtension({ type: 'bridge-tools', tools: [{ name: 'a', description: 'd' }], unreadable: [{ name: 'b', reason: 'the input schema cannot be used' }] });
    await settle();
    expect(seen).toContainEqual({ type: 'bridge-start' });
    expect(changes).toBe(1);
    expect(await source.list()).toEqual({
      offered: [{ tool: { name: 'a', description: 'd' }, source: 'polyfill' }],
      refused: [{ name: 'b', reason: 'the input schema cannot be used' }],
    });
  });

  it('runs a call through the bridge and takes only the answer to that call', async () => {
    fakeBridge((name) => (name === 'ok' ? { result: 'real result' } : { error: 'The page says no.' }));
    const source = createBridgeSource();
    const call = source.execute('ok', {}, new AbortController().signal);
    forge({ type: 'call-result', callId: 'guessed', result: 'FORGED' });
    await expect(call).resolves.toBe('real result');
    await expect(source.execute('fails', {}, new AbortController().signal)).rejects.toThrow('The page says no.');
  });

  it('ignores forged and malformed messages without throwing', async () => {
    const source = createBridgeSource();
    for (const message of [null, 42, 'text', { type: 'tools-request' }, { type: 'call-result', callId: {}, result: 1 }, { type: 'bridge-tools', tools: 'no' }]) {
      forge(message);
    }
    window.postMessage({ channel: bridgeChannel, direction: 'to-extension' }, '*');
    window.postMessage('not an envelope', '*');
    // From another frame: the right shape, the wrong source.
    window.dispatchEvent(new MessageEvent('message', { data: { channel: bridgeChannel, direction: 'to-extension', message: { type: 'bridge-tools', tools: [{ name: 'x', description: 'd' }], unreadable: [] } } }));
    await settle();
    expect(await source.list()).toEqual({ offered: [], refused: [] });
  });

  it('stops a call when its signal aborts, and tells the bridge', async () => {
    const seen = fakeBridge(() => ({ result: 'late' }));
    stops.push(listenAsBridge(() => {}));
    const source = createBridgeSource();
    const controller = new AbortController();
    const hanging = source.execute('slow', {}, controller.signal);
    controller.abort(Object.assign(new Error('Timed out.'), { name: 'TimeoutError' }));
    await expect(hanging).rejects.toThrow('Timed out.');
    await settle();
    expect(seen.some((message) => (message as { type: string }).type === 'call-abort')).toBe(true);
  });
});
