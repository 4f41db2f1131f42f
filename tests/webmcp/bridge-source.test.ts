// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { openBridgeEnd, type BridgeEnd, type ToExtensionMessage } from '@/lib/messaging/bridge-wire';
import { copyToolForPosting } from '@/lib/webmcp/bridge/copy-tool-for-posting';
import { createBridgeSource, type BridgeSource } from '@/lib/webmcp/bridge-source';
import { sanitizeTools } from '@/lib/webmcp/sanitize-tools';

const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

/** Waits for answers posted from promises to arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** The content script's half, closed after the test (pairing is first come, first served). */
function bridgeSource(): BridgeSource {
  const source = createBridgeSource();
  stops.push(() => source.close());
  return source;
}

/** A stand-in for the page-world bridge: answers calls with what `answer` says. */
function fakeBridge(answer: (name: string) => { result: string } | { error: string }): { seen: unknown[]; bridge: BridgeEnd<ToExtensionMessage> } {
  const seen: unknown[] = [];
  const bridge = openBridgeEnd((message) => {
    seen.push(message);
    const call = message as { type: string; callId: string; name: string };
    if (call.type !== 'call-start') return;
    const outcome = answer(call.name);
    if ('result' in outcome) bridge.post({ type: 'call-result', callId: call.callId, result: outcome.result });
    else bridge.post({ type: 'call-error', callId: call.callId, error: { name: 'Error', message: outcome.error } });
  });
  stops.push(() => bridge.close());
  return { seen, bridge };
}

describe('the content script’s half of the bridge', () => {
  it('asks the page-world bridge to start, and takes its tool lists as polyfill tools', async () => {
    const source = bridgeSource();
    const { seen, bridge } = fakeBridge(() => ({ result: 'x' }));
    let changes = 0;
    source.watch(() => (changes += 1));
    bridge.post({ type: 'bridge-ready' });
    bridge.post({ type: 'bridge-tools', tools: [{ name: 'a', description: 'd' }], unreadable: [{ name: 'b', reason: 'the input schema cannot be used' }] });
    await settle();
    expect(seen).toContainEqual({ type: 'bridge-start' });
    expect(changes).toBe(1);
    expect(await source.list()).toEqual({
      offered: [{ tool: { name: 'a', description: 'd' }, source: 'polyfill' }],
      refused: [{ name: 'b', reason: 'the input schema cannot be used' }],
    });
  });

  it('keeps a polyfilled tool whose output schema the bridge cannot copy, and says why', async () => {
    const source = bridgeSource();
    const { bridge } = fakeBridge(() => ({ result: 'x' }));
    const posted = copyToolForPosting({ name: 'cart_total', description: 'The cart’s total.', outputSchema: { type: 'object', default: () => 0 } });
    expect(posted).toEqual({ ok: true, tool: { name: 'cart_total', description: 'The cart’s total.', outputSchemaProblem: 'the output schema cannot be used: it holds a function, which is not JSON' } });
    bridge.post({ type: 'bridge-tools', tools: [posted.ok && posted.tool], unreadable: [] });
    await settle();
    const { tools, dropped } = sanitizeTools((await source.list()).offered, 'https://shop.example');
    expect(dropped).toEqual([]);
    expect(tools).toEqual([
      expect.objectContaining({ name: 'cart_total', outputSchemaProblem: 'the output schema cannot be used: it holds a function, which is not JSON' }),
    ]);
  });

  it('refuses a polyfilled tool whose input schema getter throws, and keeps one whose output schema getter throws without it', () => {
    const thrower = () => {
      throw new Error('zod: cannot convert z.date()');
    };
    const noInput = Object.defineProperty({ name: 'book_flight', description: 'Books a flight.' }, 'inputSchema', { get: thrower });
    expect(copyToolForPosting(noInput)).toEqual({ ok: false, name: 'book_flight', reason: 'the input schema cannot be read' });
    const noOutput = Object.defineProperty({ name: 'cart_total', description: 'The cart’s total.' }, 'outputSchema', { get: thrower });
    expect(copyToolForPosting(noOutput)).toEqual({ ok: true, tool: { name: 'cart_total', description: 'The cart’s total.', outputSchemaProblem: 'the output schema cannot be read' } });
  });

  it('runs a call through the bridge and takes only the answer to that call', async () => {
    const source = bridgeSource();
    const { bridge } = fakeBridge((name) => (name === 'ok' ? { result: 'real result' } : { error: 'The page says no.' }));
    const call = source.execute('ok', {}, new AbortController().signal);
    bridge.post({ type: 'call-result', callId: 'guessed', result: 'FORGED' });
    await expect(call).resolves.toBe('real result');
    await expect(source.execute('fails', {}, new AbortController().signal)).rejects.toThrow('The page says no.');
  });

  it('ignores malformed messages from the bridge without throwing', async () => {
    const source = bridgeSource();
    const { bridge } = fakeBridge(() => ({ result: 'x' }));
    for (const message of [null, 42, 'text', { type: 'tools-request' }, { type: 'call-result', callId: {}, result: 1 }, { type: 'bridge-tools', tools: 'no' }]) {
      bridge.post(message as ToExtensionMessage);
    }
    await settle();
    expect(await source.list()).toEqual({ offered: [], refused: [] });
  });

  it('stops a call when its signal aborts, and tells the bridge', async () => {
    const source = bridgeSource();
    // A bridge that hears the call and never answers it.
    const seen: unknown[] = [];
    const silent = openBridgeEnd((message) => seen.push(message));
    stops.push(() => silent.close());
    const controller = new AbortController();
    const hanging = source.execute('slow', {}, controller.signal);
    controller.abort(Object.assign(new Error('Timed out.'), { name: 'TimeoutError' }));
    await expect(hanging).rejects.toThrow('Timed out.');
    await settle();
    expect(seen.some((message) => (message as { type: string }).type === 'call-abort')).toBe(true);
  });
});
