import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import { startDemoServer } from '../../demo/serve-demo';
import { chromiumAvailable, launchExtension, type LaunchedExtension } from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';
import { readStoredTraces } from './support/stored-traces';

/** The extension APIs this file calls in its own pages (chrome://extensions and the extension's). */
interface ChromeGlobal {
  chrome: {
    developerPrivate: {
      updateProfileConfiguration(change: { inDeveloperMode: boolean }): Promise<void>;
      updateExtensionConfiguration(change: { extensionId: string; incognitoAccess: boolean }): Promise<void>;
    };
    extension: { isAllowedIncognitoAccess(): Promise<boolean> };
    windows: { create(options: { incognito: boolean; url: string }): Promise<{ tabs?: Array<{ id?: number; incognito: boolean }> }> };
    storage: { local: { get(key: string): Promise<Record<string, { allowedSites?: string[]; disabledSites?: string[] } | undefined>> } };
    runtime: { sendMessage(message: object): Promise<{ ok: boolean; data?: { tabs?: Array<{ tabId: number; url: string }> } }> };
  };
}

const mug = 'trail-mug-forest';

describe.skipIf(!chromiumAvailable)('the agent in a private (incognito) window', () => {
  let extension: LaunchedExtension;
  let shop: Awaited<ReturnType<typeof startDemoServer>>;
  let worker: Worker;

  beforeAll(async () => {
    [extension, shop] = await Promise.all([launchExtension({ webmcp: true }), startDemoServer()]);
    worker = await allowInIncognito(extension);
  });
  afterAll(async () => {
    await extension?.close();
    await shop?.close();
  });

  it('keeps no trace of a run, saves no site, says so in the panel, and offers none of its tabs to replay', async () => {
    await useReplayEngine(worker, {
      replies: [toolCall('add_to_cart', { qty: 1 }), 'One Trail Mug is in your cart.'],
    });
    const options = await extension.openExtensionPage('options.html');
    const settingsBefore = await readSettings(options);
    const privateTab = await options.evaluate(async (url) => {
      const { chrome } = globalThis as unknown as ChromeGlobal;
      const window = await chrome.windows.create({ incognito: true, url });
      return window.tabs?.[0];
    }, shop.url(`/#/product/${mug}`));
    expect(privateTab?.incognito).toBe(true);

    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${privateTab!.id}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 15_000 }).toBe(0);
    await panel.getByTestId('private-window').waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('private-window').textContent()).toBe('Private window: nothing is kept');
    expect(await panel.getByTestId('agent-off-here').count()).toBe(0);

    await ask(panel, 'add a mug to the cart');
    const card = panel.locator('[data-testid=tool-card][data-name=add_to_cart]');
    await card.getByTestId('approve-once').waitFor({ timeout: 15_000 });
    expect(await card.getByTestId('deny').count()).toBe(1);
    expect(await card.getByTestId('approve-site').count()).toBe(0);
    await card.getByTestId('approve-once').click();
    await panel.getByTestId('turn').getByText('One Trail Mug is in your cart.').waitFor({ timeout: 15_000 });
    expect(await card.getAttribute('data-state')).toBe('done');
    await panel.getByTestId('not-recorded').waitFor({ timeout: 5_000 });
    expect(await panel.getByTestId('not-recorded').textContent()).toBe('Not recorded (private window)');
    expect(await panel.getByTestId('trace-link').count()).toBe(0);

    expect((await readStoredTraces(panel)).runs).toEqual([]);
    expect(await readSettings(options)).toEqual(settingsBefore);

    // The trace viewer, in a normal window, lists the shop open in a normal tab, not the private one.
    const normalPage = await extension.context.newPage();
    await normalPage.goto(shop.url(`/#/product/${mug}`));
    await expect.poll(async () => (await replayTabs(options)).map((tab) => tab.url), { timeout: 15_000 }).toEqual([shop.url(`/#/product/${mug}`)]);
    expect((await replayTabs(options)).map((tab) => tab.tabId)).not.toContain(privateTab!.id);
  });
});

/**
 * Allows the extension in incognito, as the person does at chrome://extensions ("Allow in
 * Incognito"). Chromium then reloads it, and an unpacked extension stays loaded only in developer
 * mode, which is turned on first. The extension is in "spanning" mode (the manifest names none):
 * its one service worker serves normal and private tabs alike. Answers the reloaded worker.
 */
async function allowInIncognito(extension: LaunchedExtension): Promise<Worker> {
  const settingsPage = await extension.context.newPage();
  await settingsPage.goto(`chrome://extensions/?id=${extension.extensionId}`);
  const reloaded = extension.context.waitForEvent('serviceworker');
  await settingsPage.evaluate(async (extensionId) => {
    const { chrome } = globalThis as unknown as ChromeGlobal;
    await chrome.developerPrivate.updateProfileConfiguration({ inDeveloperMode: true });
    await chrome.developerPrivate.updateExtensionConfiguration({ extensionId, incognitoAccess: true });
  }, extension.extensionId);
  const worker = await reloaded;
  await settingsPage.close();
  const page = await extension.openExtensionPage('options.html');
  expect(await page.evaluate(() => (globalThis as unknown as ChromeGlobal).chrome.extension.isAllowedIncognitoAccess())).toBe(true);
  await page.close();
  return worker;
}

async function readSettings(page: Page) {
  return page.evaluate(async () => (await (globalThis as unknown as ChromeGlobal).chrome.storage.local.get('settings')).settings);
}

/** The tabs the trace viewer offers to replay a run in, as it asks the background. */
async function replayTabs(page: Page): Promise<Array<{ tabId: number; url: string }>> {
  const answer = await page.evaluate(() => (globalThis as unknown as ChromeGlobal).chrome.runtime.sendMessage({ type: 'traces-replay-tabs' }));
  return answer.data?.tabs ?? [];
}
