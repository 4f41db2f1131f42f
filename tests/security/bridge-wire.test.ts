// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  bridgeChannel,
  bridgeHelloType,
  extensionHelloType,
  openBridgeEnd,
  openExtensionEnd,
  type BridgeEnd,
} from '@/lib/messaging/bridge-wire';

const opened: Array<BridgeEnd<never>> = [];
afterEach(() => opened.splice(0).forEach((end) => end.close()));

/** Opens one half and writes down what it receives. */
function open(half: 'extension' | 'bridge'): { end: BridgeEnd<unknown>; received: unknown[] } {
  const received: unknown[] = [];
  const end = (half === 'extension' ? openExtensionEnd : openBridgeEnd)((message) => received.push(message)) as BridgeEnd<unknown>;
  opened.push(end as BridgeEnd<never>);
  return { end, received };
}

/** Every event a page script could hear: it can only listen for types it can name. */
function eavesdrop(types: readonly string[]): string[] {
  const heard: string[] = [];
  for (const type of types) window.addEventListener(type, (event) => heard.push(`${type} ${String((event as CustomEvent).detail)}`));
  return heard;
}

describe('the private channel between the content script and the page-world bridge', () => {
  it.each(['extension', 'bridge'] as const)('pairs whichever half starts first (here the %s half) and carries messages both ways', (first) => {
    const a = open(first);
    const b = open(first === 'extension' ? 'bridge' : 'extension');
    expect([a.end.paired, b.end.paired]).toEqual([true, true]);
    a.end.post({ type: 'one' });
    b.end.post({ type: 'two' });
    expect(b.received).toEqual([{ type: 'one' }]);
    expect(a.received).toEqual([{ type: 'two' }]);
  });

  it('holds messages posted before pairing and sends them once paired, whichever half posted them', () => {
    const extension = open('extension');
    extension.end.post({ type: 'bridge-start' });
    const bridge = open('bridge');
    expect(bridge.received).toEqual([{ type: 'bridge-start' }]);
    extension.end.close();
    bridge.end.close();

    const early = open('bridge');
    early.end.post({ type: 'bridge-ready' });
    const late = open('extension');
    expect(late.received).toEqual([{ type: 'bridge-ready' }]);
  });

  it('gives a page that says hello after the pairing no secret, and pairs no imitation of either half', () => {
    const extension = open('extension');
    const bridge = open('bridge');
    const heard = eavesdrop([bridgeHelloType, extensionHelloType]);
    // A page script imitating the bridge, then the content script.
    window.dispatchEvent(new CustomEvent(bridgeHelloType, { detail: '' }));
    window.dispatchEvent(new CustomEvent(extensionHelloType, { detail: 'a'.repeat(32) }));
    expect(heard).toEqual([`${bridgeHelloType} `, `${extensionHelloType} ${'a'.repeat(32)}`]);
    // The page-chosen secret opens nothing: its messages reach neither half.
    window.dispatchEvent(new CustomEvent(`${bridgeChannel}:${'a'.repeat(32)}:to-extension`, { detail: JSON.stringify({ type: 'bridge-tools', tools: [] }) }));
    window.dispatchEvent(new CustomEvent(`${bridgeChannel}:${'a'.repeat(32)}:to-bridge`, { detail: JSON.stringify({ type: 'call-start' }) }));
    expect([extension.received, bridge.received]).toEqual([[], []]);
    // And the real halves still talk.
    bridge.end.post({ type: 'bridge-ready' });
    expect(extension.received).toEqual([{ type: 'bridge-ready' }]);
  });

  it('ignores window messages, the old channel and anything that is not JSON text', () => {
    const extension = open('extension');
    const bridge = open('bridge');
    window.dispatchEvent(new MessageEvent('message', { data: { channel: 'webmcp-local-agent/bridge/1', direction: 'to-extension', message: { type: 'bridge-ready' } } }));
    window.dispatchEvent(new CustomEvent(bridgeHelloType, { detail: { not: 'text' } }));
    window.dispatchEvent(new CustomEvent(extensionHelloType, { detail: 'not hex' }));
    expect([extension.received, bridge.received]).toEqual([[], []]);
  });

  it('stops delivering once closed', () => {
    const extension = open('extension');
    const bridge = open('bridge');
    extension.end.close();
    bridge.end.post({ type: 'bridge-ready' });
    expect(extension.received).toEqual([]);
  });
});
