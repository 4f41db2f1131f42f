import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDemoServer } from '../../demo/serve-demo';
import { chromiumAvailable, currentServiceWorker, launchExtension, tabIdOf, type LaunchedExtension } from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';
import { readStoredTraces } from './support/stored-traces';

/** How many times the worker is stopped, each at a random point of a run. */
const stops = Number(process.env.WORKER_STOPS ?? 20);

/** The calls with a result that the stored trace of the run for `request` holds. */
async function tracedResults(panel: Page, request: string): Promise<number> {
  const { runs, steps } = await readStoredTraces(panel);
  const run = runs.find((candidate) => candidate.request === request);
  if (!run) return 0;
  return steps.filter((step) => step.runId === run.id).flatMap((step) => step.calls).filter((call) => call.result).length;
}

describe.skipIf(!chromiumAvailable)('a service worker that dies in the middle of runs', () => {
  let extension: LaunchedExtension;
  let shop: Awaited<ReturnType<typeof startDemoServer>>;

  beforeAll(async () => {
    [extension, shop] = await Promise.all([launchExtension({ webmcp: true }), startDemoServer()]);
  });
  afterAll(async () => {
    await extension?.close();
    await shop?.close();
  });

  it(`stopped at random points ${stops} times: no lost conversation or trace steps, no stuck panel, the next request works`, async () => {
    const page = await extension.context.newPage();
    await page.goto(shop.url('/'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    const cdp = await extension.context.newCDPSession(panel);
    const turns = panel.getByTestId('turn');
    let expectedTurns = 0;

    for (let round = 1; round <= stops; round += 1) {
      const request = `round ${round}: find mugs, caps and socks`;
      await useReplayEngine(await currentServiceWorker(extension.context), {
        replies: [
          `Mugs first.${toolCall('search_products', { query: 'mug' })}`,
          `Now caps.${toolCall('search_products', { query: 'cap' })}`,
          `And socks.${toolCall('search_products', { query: 'socks' })}`,
          'Here are the mugs, caps and socks.',
        ],
        chunkSize: 2,
        delayMs: 12,
      });
      await ask(panel, request);
      expectedTurns += 1;
      await panel.waitForTimeout(50 + Math.random() * 1800);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');

      // The panel reconnects (which wakes the worker) and shows the run as it was kept; a request
      // the worker never took comes back into the input box, and the person sends it again.
      const input = panel.getByTestId('chat-input');
      await expect
        .poll(async () => (await turns.count()) === expectedTurns || (await input.inputValue()) === request, { timeout: 15_000 })
        .toBe(true);
      if ((await turns.count()) < expectedTurns) {
        await ask(panel, request);
      }
      const turn = turns.nth(expectedTurns - 1);
      await expect
        .poll(() => turn.getAttribute('aria-busy'), { timeout: 15_000 })
        .toBe('false')
        .catch(async (error: unknown) => {
          console.log(`round ${round}:\n${await panel.locator('body').innerText()}`);
          throw error;
        });
      expect(await turns.count()).toBe(expectedTurns);
      expect(await turn.getByTestId('request').textContent()).toBe(request);
      const outcome = await turn.getByTestId('turn-notice').getAttribute('data-outcome', { timeout: 100 }).catch(() => 'answer');
      expect(['interrupted', 'answer']).toContain(outcome);
      expect(await panel.locator('[data-testid=tool-card][data-state=running]').count()).toBe(0);

      const done = await turn.locator('[data-testid=tool-card][data-state=done]').count();
      expect(await tracedResults(panel, request)).toBeGreaterThanOrEqual(done);

      await useReplayEngine(await currentServiceWorker(extension.context), { replies: [`Pong ${round}.`] });
      await ask(panel, `ping ${round}`);
      expectedTurns += 1;
      await panel.getByTestId('turn').getByText(`Pong ${round}.`).waitFor({ timeout: 15_000 });
    }
  }, stops * 15_000);
});
