import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  currentServiceWorker,
  hearsNavigations,
  launchExtension,
  serveFixtures,
  serviceWorkerRunning as workerRunning,
  stopServiceWorker,
  tabIdOf,
  type FixtureServer,
  type LaunchedExtension,
} from './support';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Long enough for a woken worker to show up: Chrome starts one within a second of the event. */
const wakeWaitMs = 3_000;

describe.skipIf(!chromiumAvailable)('the service worker, for pages that offer no tools', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;

  beforeAll(async () => {
    server = await serveFixtures(fixturesDir);
    extension = await launchExtension();
  }, 60_000);

  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  /** Stops the worker once it lets go of the tab events (it asks a moment after it starts, and after each change). */
  async function stopOnceResting(): Promise<void> {
    const worker = await currentServiceWorker(extension.context);
    await expect.poll(() => hearsNavigations(worker), { timeout: 10_000 }).toBe(false);
    await stopServiceWorker(extension.context);
    await expect.poll(() => workerRunning(extension.context)).toBe(false);
  }

  it('hears pages load while the side panel’s page is open, and lets them go once it closes', async () => {
    const reading = await extension.context.newPage();
    await reading.goto(server.url('empty.html?panel'));
    const tabId = await tabIdOf(reading);
    await stopOnceResting();
    // The panel's page, in a tab as the tests show it: a new page in its tab must reach it.
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await panel.getByTestId('chat-input').waitFor();
    const worker = await currentServiceWorker(extension.context);
    await reading.waitForTimeout(wakeWaitMs + 1_000);
    expect(await hearsNavigations(worker)).toBe(true);
    await panel.close();
    await expect.poll(() => hearsNavigations(worker), { timeout: 10_000 }).toBe(false);
  }, 60_000);

  it('stays asleep while pages without tools open, navigate and close, and wakes for a page with tools and for what then happens in its tab', async () => {
    const reading = await extension.context.newPage();
    await reading.goto(server.url('empty.html'));
    await stopOnceResting();

    // Pages without tools: nothing follows them, so nothing starts the worker.
    await reading.goto(server.url('empty.html?second'));
    const other = await extension.context.newPage();
    await other.goto(server.url('empty.html?other'));
    await other.close();
    await reading.waitForTimeout(wakeWaitMs);
    expect(await workerRunning(extension.context)).toBe(false);

    // A page with tools reports them, which starts the worker; it keeps them, and hears the tab again.
    await reading.goto(server.url('native.html'));
    const worker = await currentServiceWorker(extension.context);
    await expect.poll(() => worker.evaluate(async () => Object.keys(await (globalThis as unknown as StorageGlobal).chrome.storage.session.get(null)))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^webmcp-tab-tools:/)]),
    );
    // The page's late tool (300 ms on) reported too: its report would start the worker stopped below.
    await expect
      .poll(() => worker.evaluate(async () => JSON.stringify(await (globalThis as unknown as StorageGlobal).chrome.storage.session.get(null))), { timeout: 5_000 })
      .toContain('track_order');
    expect(await hearsNavigations(worker)).toBe(true);

    // Asleep again, the worker is started by that tab leaving its page: the tools it kept go.
    await stopServiceWorker(extension.context);
    await expect.poll(() => workerRunning(extension.context)).toBe(false);
    await reading.goto(server.url('empty.html?after-tools'));
    await expect.poll(() => workerRunning(extension.context), { timeout: wakeWaitMs }).toBe(true);
    const woken = await currentServiceWorker(extension.context);
    await expect
      .poll(() => woken.evaluate(async () => Object.keys(await (globalThis as unknown as StorageGlobal).chrome.storage.session.get(null))))
      .not.toEqual(expect.arrayContaining([expect.stringMatching(/^webmcp-tab-tools:/)]));

    // Nothing needs the tab any more: the next page lets it sleep.
    await stopOnceResting();
    await reading.goto(server.url('empty.html?last'));
    await reading.waitForTimeout(wakeWaitMs);
    expect(await workerRunning(extension.context)).toBe(false);
  }, 60_000);
});

interface StorageGlobal {
  chrome: { storage: { session: { get(keys: null): Promise<Record<string, unknown>> } } };
}
