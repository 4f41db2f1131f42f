import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { currentServiceWorker, type LaunchedExtension } from './launch-extension';
import type { FixtureServer } from './serve-fixtures';
import { tabIdOf } from './tab-id-of';
import { ask, toolCall, useReplayEngine } from './drive-agent';

/**
 * Orders two mugs on the page at `path`, whose form opens its result in a new tab, as a person
 * would with the side panel: the call says so at once, and the run goes on on this page, which
 * stays as it was. Whether the browser or the extension reads the form is the launch's choice.
 */
export async function orderWithResultInNewTab(extension: LaunchedExtension, server: FixtureServer, path: string): Promise<{ page: Page; panel: Page }> {
  await useReplayEngine(await currentServiceWorker(extension.context), {
    replies: [toolCall('place_order', { qty: 2 }), 'Your order page opened in a new tab.'],
  });
  const page = await extension.context.newPage();
  await page.goto(server.url(path));
  const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
  await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
  await ask(panel, 'order two mugs');
  const card = panel.locator('[data-testid=tool-card][data-name=place_order]');
  const opened = extension.context.waitForEvent('page');
  await card.getByTestId('approve-once').click({ timeout: 10_000 });
  await (await opened).waitForURL(/order-placed\.html\?qty=2$/);
  // The model goes on at once, told where the result went: no page comes here to end the run.
  await panel.getByTestId('turn').last().getByTestId('prose').getByText('Your order page opened in a new tab.').waitFor({ timeout: 10_000 });
  expect(await card.getAttribute('data-state')).toBe('done');
  await card.locator('summary').click();
  expect(await card.textContent()).toContain('its result opened in another tab, window or frame');
  expect(page.url()).toBe(server.url(path));
  return { page, panel };
}
