import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { currentServiceWorker, type LaunchedExtension } from './launch-extension';
import type { FixtureServer } from './serve-fixtures';
import { tabIdOf } from './tab-id-of';
import { ask, toolCall, useReplayEngine } from './drive-agent';

/**
 * Orders two mugs on the page at `path`, whose form opens its result in a new tab, as a person
 * would with the side panel: the call says at once what became of it (`said`), and the run goes on
 * on this page, which stays as it was. `opens`: the new tab is there to wait for.
 */
export async function orderWithResultInNewTab(
  extension: LaunchedExtension,
  server: FixtureServer,
  path: string,
  { said, opens }: { said: string; opens: boolean },
): Promise<{ page: Page; panel: Page }> {
  await useReplayEngine(await currentServiceWorker(extension.context), {
    replies: [toolCall('place_order', { qty: 2 }), 'I sent the order form.'],
  });
  const page = await extension.context.newPage();
  await page.goto(server.url(path));
  const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
  await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
  await ask(panel, 'order two mugs');
  const card = panel.locator('[data-testid=tool-card][data-name=place_order]');
  const opened = opens ? extension.context.waitForEvent('page') : undefined;
  await card.getByTestId('approve-once').click({ timeout: 10_000 });
  if (opened) await (await opened).waitForURL(/order-placed\.html\?qty=2$/);
  // The model goes on at once, told what became of it: no page comes here to end the run.
  await panel.getByTestId('turn').last().getByTestId('prose').getByText('I sent the order form.').waitFor({ timeout: 10_000 });
  expect(await card.getAttribute('data-state')).toBe('done');
  await card.locator('summary').click();
  expect(await card.textContent()).toContain(said);
  expect(page.url()).toBe(server.url(path));
  return { page, panel };
}
