// @vitest-environment happy-dom
import { expect, it, vi } from 'vitest';
import { setupMainWorldBridge } from '@/lib/webmcp/bridge/main-world-bridge';
import { createBridgeSource } from '@/lib/webmcp/bridge-source';

it('passes on a polyfilled tool’s long error cut to 2,000 characters, saying so', async () => {
  const source = createBridgeSource();
  setupMainWorldBridge();
  const context = Object.assign(new EventTarget(), {
    getTools: async () => [{ name: 'pay', description: 'Pays.' }],
    executeTool: async () => {
      throw new Error(`Card declined. ${'z'.repeat(4_985)}`);
    },
  });
  Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
  window.dispatchEvent(new Event('load'));
  // Until the bridge has found the tool: on a busy machine that takes longer than any fixed pause.
  await vi.waitFor(async () => expect((await source.list()).offered).toHaveLength(1));
  const error = await source.execute('pay', {}, new AbortController().signal).then(
    () => undefined,
    (thrown: Error) => thrown,
  );
  const kept = error?.message.indexOf('\n') ?? -1;
  expect(error?.message.length).toBeLessThanOrEqual(2_000);
  expect(error?.message.startsWith('Card declined. zzz')).toBe(true);
  expect(error?.message.slice(kept)).toBe(`\n… (cut: ${5_000 - kept} of 5000 characters not shown)`);
  source.close();
});
