import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../demo/serve-demo';
import { chromiumAvailable, launchExtension, screenshotPath, serveFixtures, stopServiceWorker, tabIdOf, type FixtureServer, type LaunchedExtension } from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';
import { stepsOfRun } from './support/stored-traces';
import { typingPauseMs } from '../../components/shared/use-typing-pause';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../traces/fixtures');
const mug = 'trail-mug-forest';

describe.skipIf(!chromiumAvailable)('the trace viewer in the extension', () => {
  let extension: LaunchedExtension;
  let shop: Awaited<ReturnType<typeof startDemoServer>>;
  let fixtureServer: FixtureServer;

  beforeAll(async () => {
    [extension, shop, fixtureServer] = await Promise.all([launchExtension({ webmcp: true }), startDemoServer(), serveFixtures(fixtures)]);
  });
  afterAll(async () => {
    await extension?.close();
    await shop?.close();
    await fixtureServer?.close();
  });

  async function openPageAndPanel(url: string): Promise<{ page: Page; panel: Page; tabId: number }> {
    const page = await extension.context.newPage();
    await page.goto(url);
    const tabId = await tabIdOf(page);
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await panel.getByTestId('chat-input').waitFor();
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    return { page, panel, tabId };
  }

  /** Sends a request, allows add_to_cart when it asks, and returns the run id from the turn's Trace link. */
  async function runAndApprove(panel: Page, request: string, answer: string): Promise<string> {
    await ask(panel, request);
    await panel.locator('[data-testid=tool-card][data-name=add_to_cart] [data-testid=approve-once]').click({ timeout: 15_000 });
    await panel.getByTestId('turn').getByText(answer).waitFor({ timeout: 15_000 });
    const link = panel.getByTestId('trace-link').last();
    await link.waitFor({ timeout: 15_000 });
    return new URL((await link.getAttribute('href'))!, 'chrome-extension://x/').searchParams.get('run')!;
  }

  const texts = (page: Page, selector: string) => page.locator(selector).evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));
  /** Where the keyboard focus is: an element's test id, else its tag (BODY when focus was lost). */
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

  it('after the shop task, shows the run with its steps, scores, prompt, raw output, calls, results and timeline', async () => {
    await useReplayEngine(extension.serviceWorker, {
      replies: [
        `I'll look for mugs.${toolCall('search_products', { query: 'mug' })}`,
        `<think>The forest one is first.</think>Opening it.${toolCall('open_product', { slug: mug })}`,
        `Adding two.${toolCall('add_to_cart', { qty: 2 })}`,
        // A long address: the step's prose wraps it at any width, as the raw output does.
        `Done! Two **Trail Mugs, Forest Green** are in your cart: ${shop.url('/cart')}?from=${'TrailMugForestGreen'.repeat(10)}`,
      ],
      // Results past 200 characters are cut for the model, so the trace says how much it read.
      settings: { toolOutputLimit: 200 },
    });
    const { panel } = await openPageAndPanel(shop.url('/'));
    const runId = await runAndApprove(panel, 'add two mugs to the cart', 'Done! Two Trail Mugs');

    const viewer = await extension.openExtensionPage(`traces.html?run=${encodeURIComponent(runId)}`);
    await viewer.getByTestId('run-detail').waitFor();
    expect(await viewer.getByTestId('run-title').textContent()).toBe('add two mugs to the cart');
    expect(await viewer.getByTestId('run-outcome').textContent()).toBe('Answered');
    // The answer reads as the panel showed it: its Markdown rendered, not its asterisks.
    expect(await viewer.getByTestId('run-answer').locator('strong').textContent()).toBe('Trail Mugs, Forest Green');
    expect(await viewer.getByTestId('run-answer').textContent()).not.toContain('**');
    // Its buttons stand apart from the answer's box.
    const [answerBox, exportBox] = await Promise.all([viewer.getByTestId('run-answer').boundingBox(), viewer.getByTestId('export-run').boundingBox()]);
    expect(exportBox!.y - (answerBox!.y + answerBox!.height)).toBeGreaterThanOrEqual(8);
    expect(await viewer.getByTestId('run-url').textContent()).toContain(shop.origin);
    expect(await viewer.locator('[data-testid=run-item][data-run-id]').first().getAttribute('data-run-id')).toBe(runId);
    expect(await viewer.getByTestId('step').evaluateAll((steps) => steps.map((step) => step.getAttribute('data-step')))).toEqual(['1', '2', '3', '4']);

    const second = viewer.locator('[data-testid=step][data-step="2"]');
    await second.getByTestId('step-summary').click();
    await second.getByTestId('score-row').first().waitFor();
    expect(await texts(viewer, '[data-testid=step][data-step="2"] [data-testid=score-row] td:nth-child(2)')).toContain('open_product (called)');
    expect(await second.getByTestId('score').first().textContent()).toMatch(/^\d+(\.\d+)?$/);
    expect(await second.locator('[data-testid=prompt-message][data-role=system]').textContent()).toContain('<tools>');
    expect(await second.locator('[data-testid=prompt-message][data-role=user]').first().textContent()).toContain('add two mugs to the cart');
    expect(await second.locator('[data-testid=raw-output] [data-part=think]').textContent()).toBe('<think>The forest one is first.</think>');
    expect(await second.locator('[data-testid=raw-output] [data-part=call]').textContent()).toContain('"open_product"');
    expect(await second.locator('[data-testid=call]').getAttribute('data-name')).toBe('open_product');
    expect(await second.getByTestId('call-result').textContent()).toContain('Trail Mug');
    // The trace keeps the whole result, and says how much of it the model read.
    const read = /^The model read the first ([\d,]+) of ([\d,]+) characters\.$/.exec((await second.getByTestId('call-read').textContent()) ?? '');
    expect(Number(read?.[1]?.replaceAll(',', ''))).toBeLessThanOrEqual(200);
    expect(read?.[2]).toBe((await second.getByTestId('call-result').textContent())!.length.toLocaleString('en-US'));

    const third = viewer.locator('[data-testid=step][data-step="3"]');
    await third.getByTestId('step-summary').click();
    expect(await third.getByTestId('call-approval').getAttribute('data-approved')).toBe('true');
    expect(await third.getByTestId('call-result').textContent()).toContain('"itemCount":2');

    const bars = await viewer.getByTestId('timeline-bar').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-kind')}:${node.getAttribute('data-step')}`));
    expect(bars.filter((bar) => bar.startsWith('model:'))).toEqual(['model:1', 'model:2', 'model:3', 'model:4']);
    expect(bars.filter((bar) => bar.startsWith('tool:'))).toEqual(['tool:1', 'tool:2', 'tool:3']);
    expect(bars).toContain('wait:3');
    // The page settles after a call before the next reply (300 ms at least): that time has its bar.
    expect(bars).toContain('between:2');
    expect(await viewer.locator('[data-testid=timeline-totals] [data-total=total] dd').textContent()).toMatch(/\d/);

    // For the README: the run, its timeline, and step 2 open (reasoning and call highlighted).
    await third.getByTestId('step-summary').click();
    await viewer.setViewportSize({ width: 1280, height: 1500 });
    await viewer.locator('.detail-pane').evaluate((pane) => pane.scrollTo(0, 0));
    await viewer.screenshot({ path: screenshotPath('trace.png') });
    const fourth = viewer.locator('[data-testid=step][data-step="4"]');
    await fourth.getByTestId('step-summary').click();
    expect(await fourth.getByTestId('parsed-prose').textContent()).toContain('TrailMugForestGreenTrailMug');

    // 640 CSS px is a 1,280 px window at 200 % zoom, 320 is 400 %: the run reflows, nothing but a
    // wide table or chart scrolls sideways, and the chart's words never shrink below 8 px.
    for (const width of [640, 320]) {
      await viewer.setViewportSize({ width, height: 900 });
      const layout = await viewer.evaluate(() => ({
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        detailWidth: document.querySelector('.detail-pane')!.getBoundingClientRect().width,
        runsOverflow: document.querySelector('.runs-pane')!.scrollWidth - document.querySelector('.runs-pane')!.clientWidth,
        tickText: document.querySelector('.timeline-tick text')!.getBoundingClientRect().height,
      }));
      expect(layout.pageOverflow, `the page at ${width} px`).toBe(0);
      expect(layout.runsOverflow, `the runs at ${width} px`).toBe(0);
      expect(layout.detailWidth, `the open run at ${width} px`).toBeGreaterThanOrEqual(width - 20);
      expect(layout.tickText, `the timeline's words at ${width} px`).toBeGreaterThanOrEqual(8);
    }

    // High contrast (Windows' contrast themes) drops backgrounds: the chosen run and the legend's colours must not go with them.
    await viewer.setViewportSize({ width: 1280, height: 900 });
    // Wide, the panes scroll and the page does not: what is drawn out of the flow in them (the
    // timeline's table for screen readers) stays in them, so the header never scrolls away.
    await viewer.setViewportSize({ width: 1280, height: 400 });
    expect(await viewer.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight)).toBe(0);
    await viewer.setViewportSize({ width: 1280, height: 900 });
    await viewer.emulateMedia({ forcedColors: 'active' });
    const forced = await viewer.evaluate(() => {
      const selected = getComputedStyle(document.querySelector('.run-list li.selected button')!).borderTopWidth;
      const swatch = getComputedStyle(document.querySelector('.legend-swatch.bar-model')!).backgroundColor;
      const bar = getComputedStyle(document.querySelector('.timeline rect.bar-model')!).fill;
      return { selected, swatch, bar };
    });
    // Every button has a thin border there: the chosen run's is thick.
    expect(forced.selected).toBe('3px');
    expect(forced.swatch).toBe(forced.bar);
    await viewer.emulateMedia({ forcedColors: 'none' });
  });

  it('exports a run and imports it back unchanged; a malformed file is refused with a message and changes nothing', async () => {
    const viewer = await extension.openExtensionPage('traces.html');
    await viewer.getByTestId('run-item').first().locator('button').click();
    await viewer.getByTestId('run-detail').waitFor();
    const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.getByTestId('export-run').click()]);
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
    // The file keeps how much of a result the model read (the shop run cut them at 200 characters).
    expect(exported.runs[0].steps.flatMap((step: { calls: { read?: unknown }[] }) => step.calls.filter((call) => call.read))).not.toHaveLength(0);
    const count = await viewer.getByTestId('run-item').count();

    await viewer.getByTestId('import-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "webmcp-agent-traces", "version": 1, "exportedAt": 0, "runs": [{"run": {"id": 5}}]}') });
    await viewer.locator('[data-testid=notice][data-tone=error]').waitFor();
    expect(await viewer.getByTestId('notice-text').textContent()).toMatch(/^Nothing was imported\. The trace file is damaged: runs\[0\]\.run\.id: /);
    expect(await viewer.getByTestId('run-item').count()).toBe(count);

    await viewer.getByTestId('delete-run').click();
    await viewer.getByTestId('confirm-delete-run').click();
    await expect.poll(() => viewer.getByTestId('run-item').count()).toBe(count - 1);
    // The buttons went with the run: focus lands on what stays, not on the page body, once the
    // deletion ends (the shorter list may be drawn a moment before).
    await expect.poll(() => focused(viewer)).toBe(count > 1 ? 'run-list' : 'viewer-title');
    await viewer.getByTestId('import-file').setInputFiles({ name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await expect.poll(() => viewer.getByTestId('notice-text').textContent()).toBe('Imported 1 run.');
    await expect.poll(() => viewer.getByTestId('run-item').count()).toBe(count);

    await viewer.getByTestId('run-item').first().locator('button').click();
    const [again] = await Promise.all([viewer.waitForEvent('download'), viewer.getByTestId('export-run').click()]);
    const reexported = JSON.parse(await readFile((await again.path())!, 'utf8'));
    expect(reexported.runs).toEqual(exported.runs);
  });

  it('wraps the long tool names of a step’s problems and calls at 320 px: nothing but a table or chart scrolls sideways', async () => {
    const name = 'search_products_by_category_and_price_range_with_filters_v2';
    const at = Date.UTC(2026, 5, 1, 12);
    const step = (number: number, change: Record<string, unknown>) => ({
      runId: 'long-names',
      step: number,
      startedAt: at + number * 1_000,
      tools: [{ name, description: 'Searches.', parameters: { type: 'object' }, score: 0.5 }],
      messages: [{ role: 'user', content: 'find a mug' }],
      raw: '',
      complete: true,
      prose: '',
      calls: [],
      problems: [],
      usage: { promptTokens: 10, completionTokens: 5 },
      modelMs: 500,
      ...change,
    });
    const run = { id: 'long-names', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: 'm', request: 'find a mug', startedAt: at, endedAt: at + 3_000, outcome: 'answer', answer: 'None.', stepCount: 2, sizeBytes: 1_000, updatedAt: at + 3_000 };
    const steps = [
      step(1, { raw: `<tool_call>{"name": "${name}x", "arguments": {}}</tool_call>`, problems: [{ kind: 'unknown-tool', name: `${name}x`, message: `The page offers no tool named "${name}x".` }] }),
      step(2, {
        calls: [{ callId: '2.1', name, arguments: { [name]: 1 }, calledAt: at + 2_100 }],
        problems: [{ kind: 'invalid-arguments', callId: '2.1', name, message: `"${name}" is not a parameter of ${name}.` }],
      }),
    ];
    const viewer = await extension.openExtensionPage('traces.html');
    await viewer.getByTestId('import-file').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'webmcp-agent-traces', version: 1, exportedAt: at + 5_000, runs: [{ run, steps }] })) });
    await expect.poll(() => viewer.getByTestId('notice-text').textContent()).toBe('Imported 1 run.');
    await viewer.locator('[data-testid=run-item][data-run-id=long-names] button').click();
    // The run opens after the click: its steps are listed once it is read.
    await expect.poll(() => viewer.getByTestId('step-summary').count()).toBe(steps.length);
    for (const summary of await viewer.getByTestId('step-summary').all()) await summary.click();
    await viewer.setViewportSize({ width: 320, height: 900 });
    await expect.poll(() => viewer.getByTestId('problem').count()).toBe(2);
    const overflow = await viewer.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await viewer.getByTestId('delete-run').click();
    await viewer.getByTestId('confirm-delete-run').click();
    await viewer.locator('[data-testid=run-item][data-run-id=long-names]').waitFor({ state: 'detached' });
    await viewer.close();
  });

  it('replays a run against its page: as recorded when unchanged, and diverging at step 2 once add_to_cart is renamed', async () => {
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('open_product', { slug: 'enamel-mug' }), `In stock.${toolCall('add_to_cart', { qty: 2 })}`, 'Two enamel mugs are in your cart.'],
    });
    const { page, panel } = await openPageAndPanel(fixtureServer.url('/mug-shop.html'));
    const runId = await runAndApprove(panel, 'two enamel mugs please', 'Two enamel mugs are in your cart.');
    await page.reload();

    const viewer = await extension.openExtensionPage(`traces.html?run=${encodeURIComponent(runId)}`);
    await viewer.getByTestId('replay-tab').waitFor();
    // The tab is named as the person knows it, by its address and title, not by an internal id.
    expect(await viewer.locator('[data-testid=replay-tab] option:checked').textContent()).toMatch(/^http:\/\/.+\/mug-shop\.html · \d+ tools? · the run's own tab · Mug shop \(trace replay fixture\)$/);
    await viewer.getByTestId('replay-start').click();
    await viewer.locator('[data-testid=replay-confirm][data-name=add_to_cart]').waitFor({ timeout: 15_000 });
    await viewer.getByTestId('replay-allow').click();
    await viewer.getByTestId('replay-result').waitFor({ timeout: 15_000 });
    expect(await viewer.getByTestId('replay-result').getAttribute('data-divergences')).toBe('0');
    // The answered question went away: focus moved to Cancel, which became Replay when the replay ended.
    expect(await focused(viewer)).toBe('replay-start');
    expect(await page.locator('#cart-count').textContent()).toBe('2');

    await page.goto(fixtureServer.url('/mug-shop.html?renamed'));
    // The changed page reports its tools a moment after it loads. Only a list that names the new
    // page (its title) is fresh: a refresh still on its way may answer from before the page reported.
    await refreshUntilReplayable(viewer, /Mug shop, renamed/);
    await viewer.getByTestId('replay-start').click();
    await viewer.getByTestId('replay-result').waitFor({ timeout: 15_000 });
    expect(await viewer.getByTestId('replay-result').getAttribute('data-first-step')).toBe('2');
    const divergences = await viewer.locator('[data-testid=divergence-list] [data-testid=divergence]').evaluateAll((nodes) =>
      nodes.map((node) => `${node.getAttribute('data-step')} ${node.getAttribute('data-type')}`),
    );
    expect(divergences.slice(0, 2)).toEqual(['2 tool-list', '2 call']);
    expect(await viewer.locator('[data-testid=divergence-list] [data-type=call]').textContent()).toContain('add_to_cart ran in the recording, and now named a tool the page does not offer.');
    expect(await viewer.locator('[data-testid=step][data-step="2"] [data-testid=step-divergences]').count()).toBe(1);
    expect(await page.locator('#cart-count').textContent()).toBe('0');

    // The tab leaves, while the replay asks, for a page of another site that offers no tools: the
    // replay stops there, rather than report the shop's tools as gone.
    await page.goto(fixtureServer.url('/mug-shop.html'));
    // The list drops the query string, so the page before the navigation reads the same: only a
    // list read after the new page reported, with Replay on, will do.
    await refreshUntilReplayable(viewer, /mug-shop\.html · .*Mug shop \(trace replay fixture\)$/);
    await viewer.getByTestId('replay-start').click();
    await viewer.locator('[data-testid=replay-confirm][data-name=add_to_cart]').waitFor({ timeout: 15_000 });
    const elsewhere = fixtureServer.url('/no-tools-here').replace('127.0.0.1', 'localhost');
    await page.goto(elsewhere);
    await viewer.getByTestId('replay-allow').click();
    await viewer.getByTestId('replay-error').waitFor({ timeout: 15_000 });
    const other = new URL(elsewhere).origin;
    expect(await viewer.getByTestId('replay-error').textContent()).toBe(
      `The tab went from ${new URL(fixtureServer.url('/')).origin} to ${other}, so the replay stopped, as a run does when its page changes. Nothing was run on ${other}.`,
    );
    expect(await viewer.getByTestId('replay-result').count()).toBe(0);
  });

  it('takes turns at a tab with the agent: no replay while a request runs there, and no request while a replay does', async () => {
    const replies = [toolCall('open_product', { slug: 'enamel-mug' }), `In stock.${toolCall('add_to_cart', { qty: 2 })}`, 'Two enamel mugs are in your cart.'];
    await useReplayEngine(extension.serviceWorker, { replies });
    const { page, panel } = await openPageAndPanel(fixtureServer.url('/mug-shop.html'));
    const runId = await runAndApprove(panel, 'two enamel mugs please', 'Two enamel mugs are in your cart.');
    await page.reload();
    // The reloaded page offers open_product alone (add_to_cart comes once a product is open): the
    // panel says so once the new page's tools have arrived, not the old page's two.
    await expect.poll(() => panel.locator('.site-detail').textContent(), { timeout: 10_000 }).toBe('1 tool');

    // A second request waits for the person's yes to add_to_cart: the agent is running in the tab.
    await useReplayEngine(extension.serviceWorker, { replies });
    await ask(panel, 'two more please');
    await panel.locator('[data-testid=tool-card][data-name=add_to_cart] [data-testid=approve-once]').waitFor({ timeout: 15_000 });
    const viewer = await extension.openExtensionPage(`traces.html?run=${encodeURIComponent(runId)}`);
    await expect.poll(() => viewer.getByTestId('replay-start').isEnabled(), { timeout: 10_000 }).toBe(true);
    await viewer.getByTestId('replay-start').click();
    await viewer.getByTestId('replay-error').waitFor({ timeout: 15_000 });
    expect(await viewer.getByTestId('replay-error').textContent()).toContain('The agent is running in that tab. Let its request finish, or stop it in the side panel, then replay.');
    expect(await viewer.getByTestId('replay-confirm').count()).toBe(0);

    // Once the request is stopped, the replay runs; a request sent meanwhile is refused, and kept in the box.
    await panel.getByTestId('stop').click();
    await panel.locator('[data-testid=turn-notice][data-outcome=stopped]').waitFor({ timeout: 15_000 });
    await viewer.getByTestId('replay-start').click();
    await viewer.locator('[data-testid=replay-confirm][data-name=add_to_cart]').waitFor({ timeout: 15_000 });
    await ask(panel, 'and a spoon');
    await panel.getByTestId('session-error').waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('session-error').textContent()).toContain('A replay from the trace viewer is running in this tab. Wait for it to end, or cancel it in the trace viewer, then send your request again.');
    expect(await panel.getByTestId('chat-input').inputValue()).toBe('and a spoon');
    expect(await panel.getByTestId('turn').count()).toBe(2);

    // The replay ends as usual, and the tab is the agent's again.
    await viewer.getByTestId('replay-allow').click();
    await viewer.getByTestId('replay-result').waitFor({ timeout: 15_000 });
    await viewer.close();
    await page.close();
    await panel.close();
  });

  it('keeps the page of a run without the token and fragment of its address, in the store, the viewer and an export, and replays it there', async () => {
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('open_product', { slug: 'enamel-mug' }), `In stock.${toolCall('add_to_cart', { qty: 2 })}`, 'Two enamel mugs, privately.'],
    });
    const { page, panel } = await openPageAndPanel(fixtureServer.url('/mug-shop.html?token=secret-token&email=ann%40example.com#access_token=secret-fragment'));
    const runId = await runAndApprove(panel, 'two mugs from a secret address', 'Two enamel mugs, privately.');
    const secrets = ['secret-token', 'ann%40example.com', 'ann@example.com', 'secret-fragment'];
    await page.reload();

    const viewer = await extension.openExtensionPage(`traces.html?run=${encodeURIComponent(runId)}`);
    const stored = JSON.stringify(await stepsOfRun(viewer, 'two mugs from a secret address'));
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect(await viewer.getByTestId('run-url').textContent()).toBe(fixtureServer.url('/mug-shop.html'));
    const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.getByTestId('export-run').click()]);
    const exported = await readFile((await download.path())!, 'utf8');
    expect(JSON.parse(exported).runs[0].run.url).toBe(fixtureServer.url('/mug-shop.html'));
    for (const secret of secrets) expect(exported).not.toContain(secret);

    // The run replays in its tab, still at its whole address: a replay goes by the site, never the
    // address (which the list shows without its query string). The reloaded page reports its tools
    // a moment after it loads; until then the list may offer another tab of the site.
    await expect
      .poll(async () => {
        await viewer.getByTestId('replay-refresh').click();
        return (await viewer.locator('[data-testid=replay-tab] option:checked').allTextContents()).join('');
      }, { timeout: 10_000 })
      .toContain("the run's own tab");
    await expect.poll(() => viewer.getByTestId('replay-start').isEnabled()).toBe(true);
    await viewer.getByTestId('replay-start').click();
    await viewer.locator('[data-testid=replay-confirm][data-name=add_to_cart]').waitFor({ timeout: 15_000 });
    await viewer.getByTestId('replay-allow').click();
    await viewer.getByTestId('replay-result').waitFor({ timeout: 15_000 });
    expect(await viewer.getByTestId('replay-result').getAttribute('data-divergences')).toBe('0');
    expect(await page.locator('#cart-count').textContent()).toBe('2');
  });

  it('keeps the address a single-page app moved to with pushState, not the one its document loaded at', async () => {
    await useReplayEngine(extension.serviceWorker, { replies: ['Order 42 is on its way.'] });
    const { page, panel } = await openPageAndPanel(fixtureServer.url('/mug-shop.html'));
    await page.evaluate(() => history.pushState(null, '', '/orders/42?tab=tracking'));
    await ask(panel, 'where is order 42?');
    await panel.getByTestId('turn').getByText('Order 42 is on its way.').waitFor({ timeout: 15_000 });
    const link = panel.getByTestId('trace-link').last();
    await link.waitFor({ timeout: 15_000 });
    const runId = new URL((await link.getAttribute('href'))!, 'chrome-extension://x/').searchParams.get('run')!;
    const viewer = await extension.openExtensionPage(`traces.html?run=${encodeURIComponent(runId)}`);
    await expect.poll(() => viewer.getByTestId('run-url').textContent(), { timeout: 10_000 }).toBe(fixtureServer.url('/orders/42'));
    await viewer.close();
    await panel.close();
    await page.close();
  });

  it('keeps the steps of a run cut off by a service-worker stop, marked interrupted', async () => {
    await useReplayEngine(extension.serviceWorker, {
      replies: [`Opening it.${toolCall('open_product', { slug: 'enamel-mug' })}`, 'This reply streams very slowly. '.repeat(40)],
      chunkSize: 1,
      delayMs: 40,
    });
    const { panel } = await openPageAndPanel(fixtureServer.url('/mug-shop.html'));
    await ask(panel, 'a run that will be cut off');
    await panel.getByTestId('turn').getByText('This reply streams').waitFor({ timeout: 15_000 });
    // Let the recorder write what it has (it writes within a second while a reply streams).
    await panel.waitForTimeout(1_500);
    await stopServiceWorker(extension.context);

    const viewer = await extension.openExtensionPage('traces.html');
    await viewer.getByTestId('run-search').fill('cut off');
    // The list follows once typing pauses.
    await expect.poll(() => viewer.getByTestId('run-count').textContent()).toMatch(/^1 of \d+ runs$/);
    await viewer.getByTestId('run-item').first().locator('button').click();
    // The panel reconnects, which starts the worker again; the recorder then ends the run.
    await expect.poll(() => viewer.getByTestId('run-outcome').textContent(), { timeout: 15_000 }).toBe('Interrupted');
    const steps = viewer.getByTestId('step');
    expect(await steps.count()).toBe(2);
    for (const summary of await viewer.getByTestId('step-summary').all()) await summary.click();
    expect(await viewer.locator('[data-testid=step][data-step="1"] [data-testid=call-result]').textContent()).toContain('Enamel mug');
    expect(await viewer.locator('[data-testid=step][data-step="2"] [data-testid=raw-output]').textContent()).toMatch(/^This reply streams/);
  });
  it('with many runs, draws fifty and more as the list scrolls to its end; the list is one stop for Tab, and Show more, reached by it, draws the next runs when pressed; "Delete matching" deletes them all', async () => {
    const viewer = await extension.openExtensionPage('traces.html');
    await viewer.getByTestId('run-search').waitFor();
    await viewer.evaluate(storeCopiedRuns, 250);
    await viewer.reload();
    await viewer.getByTestId('run-search').fill('copied run');
    // The list follows the search once typing pauses: where every run matches, the count reads the
    // same before, and the list would be drawn again under the scroll below.
    await viewer.waitForTimeout(typingPauseMs + 100);
    await expect.poll(() => viewer.getByTestId('run-count').textContent()).toMatch(/^250 (of \d+ )?runs$/);
    expect(await viewer.getByTestId('run-item').count()).toBe(50);
    expect(await viewer.getByTestId('run-item').first().getAttribute('aria-setsize')).toBe('250');
    // Whatever the outcome's word and however long the site, each row has the same two lines under its request.
    const shapes = await viewer.getByTestId('run-item').evaluateAll((rows) =>
      rows.map((row) => {
        const tops = (testId: string) => [...row.querySelectorAll(`[data-testid="${testId}"] > span`)].map((part) => Math.round(part.getBoundingClientRect().top));
        const [outcome, time] = [tops('run-outcome-line'), tops('run-time-line')];
        return `${Math.round(row.getBoundingClientRect().height)} ${new Set(outcome).size} ${new Set(time).size} ${time[0]! > outcome[0]!}`;
      }),
    );
    expect(new Set(shapes)).toEqual(new Set([shapes[0]]));
    expect(shapes[0]).toMatch(/ 1 1 true$/);

    await viewer.locator('.runs-pane').evaluate((pane) => pane.scrollTo(0, pane.scrollHeight));
    await expect.poll(() => viewer.getByTestId('run-item').count()).toBe(100);

    // The list is one stop for Tab: from a run, Tab goes to "Show more", which the Tab scrolls into
    // view and which then draws nothing by itself (Tab again goes on past the list); Enter draws the
    // next runs and hands the focus to the first of them.
    // Focused without scrolling: a focus that scrolled the last row into view could bring "Show
    // more" into view with it, which then draws the next runs by itself, as it should.
    await viewer.getByTestId('run-item').nth(99).locator('button').evaluate((button: HTMLElement) => button.focus({ preventScroll: true }));
    await viewer.keyboard.press('Tab');
    expect(await viewer.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('more-runs');
    await viewer.waitForTimeout(500);
    expect(await viewer.getByTestId('run-item').count()).toBe(100);
    await viewer.keyboard.press('Enter');
    // The focus moves once the rows are drawn, after a frame: a busy machine may take past a poll's default second.
    await expect.poll(() => viewer.evaluate(() => document.activeElement?.closest('li')?.getAttribute('aria-posinset')), { timeout: 10_000 }).toBe('101');
    await viewer.keyboard.press('Tab');
    expect(await viewer.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('more-runs');

    await viewer.getByTestId('delete-all').click();
    expect(await viewer.getByTestId('confirm-delete-all').textContent()).toMatch(/^Delete 250 (matching )?runs$/);
    await viewer.getByTestId('confirm-delete-all').click();
    await expect.poll(() => viewer.getByTestId('notice-text').textContent()).toBe('Deleted 250 runs.');
  });

  it('lists a run made from a side panel as it starts and ends, the viewer open and never focused', async () => {
    const viewer = await extension.openExtensionPage('traces.html');
    await viewer.locator('[data-testid=run-count], [data-testid=no-runs]').first().waitFor();
    const before = await viewer.getByTestId('run-item').count();
    await useReplayEngine(extension.serviceWorker, { replies: ['The forest mug is the one to take.'], delayMs: 40 });
    const { panel } = await openPageAndPanel(shop.url('/'));
    // Only the side panel is used from here: the viewer's page gets no focus to read its list again on.
    await viewer.evaluate(() => window.addEventListener('focus', () => document.body.setAttribute('data-focused', 'yes')));
    await ask(panel, 'which mug should I take?');
    await expect.poll(() => viewer.getByTestId('run-item').count(), { timeout: 10_000 }).toBe(before + 1);
    const listed = viewer.getByTestId('run-item').first();
    await expect.poll(() => listed.textContent(), { timeout: 10_000 }).toContain('Answered');
    expect(await listed.textContent()).toContain('which mug should I take?');
    expect(await viewer.locator('body').getAttribute('data-focused')).toBeNull();
    await panel.close();
    await viewer.close();
  });

  it('follows the tabs a run can replay in as a page of its site opens, leaves and comes back, with no Refresh', async () => {
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('open_product', { slug: 'enamel-mug' }), `In stock.${toolCall('add_to_cart', { qty: 1 })}`, 'One enamel mug.'],
    });
    const { page, panel } = await openPageAndPanel(fixtureServer.url('/mug-shop.html'));
    const runId = await runAndApprove(panel, 'one mug, then follow the tabs', 'One enamel mug.');
    await panel.close();
    await page.close();

    const viewer = await extension.openExtensionPage(`traces.html?run=${encodeURIComponent(runId)}`);
    await viewer.getByTestId('replay-panel').waitFor({ timeout: 10_000 });
    // Tabs of earlier tests may show the site too: the list is looked at for this tab's own entry.
    const again = await extension.context.newPage();
    await again.goto(fixtureServer.url('/mug-shop.html'));
    const tabId = await tabIdOf(again);
    const entry = async () => (await viewer.locator(`[data-testid=replay-tab] option[value="${tabId}"]`).allTextContents()).join('') || 'none';
    await expect.poll(entry, { timeout: 10_000 }).toMatch(/mug-shop\.html · 1 tool · Mug shop/);

    // Its page leaves for one that offers no tools, then comes back: the list says so each time.
    await again.goto(fixtureServer.url('/no-tools-here'));
    await expect.poll(entry, { timeout: 10_000 }).toBe('none');
    await again.goBack();
    await expect.poll(entry, { timeout: 10_000 }).toMatch(/mug-shop\.html · 1 tool/);
    await viewer.close();
    await again.close();
  });
});

/** Runs in the viewer: writes `count` finished runs, "Copied run 0" to the last, straight into its database. */
function storeCopiedRuns(count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open('webmcp-agent-traces');
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction('runs', 'readwrite');
      const startedAt = Date.now() - 3_600_000;
      for (let index = 0; index < count; index += 1) {
        transaction.objectStore('runs').put({
          id: `copied-${index}`, tabId: 1, url: 'https://copies.example/', origin: index % 7 === 0 ? 'https://a-very-long-host-name-for-copies.example:8443' : 'https://copies.example', engineId: 'replay', model: 'copies',
          request: `Copied run ${index}`, startedAt: startedAt + index * 1_000, endedAt: startedAt + index * 1_000 + 500, outcome: ['answer', 'error', 'interrupted'][index % 3], stepCount: 0, sizeBytes: 1_000, updatedAt: startedAt,
        });
      }
      transaction.oncomplete = () => {
        opening.result.close();
        resolve();
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

/**
 * Refreshes the replay's tab list until the tab chosen matches `label` and Replay is on. Each look
 * waits for its own refresh to be answered, so that no answer to an earlier refresh, about the tabs
 * as they were (a page that had not reported yet), comes after the look that passed.
 */
async function refreshUntilReplayable(viewer: Page, label: RegExp): Promise<void> {
  await expect
    .poll(
      async () => {
        await viewer.getByTestId('replay-refresh').click();
        await viewer.waitForTimeout(500);
        const chosen = (await viewer.locator('[data-testid=replay-tab] option:checked').allTextContents()).join('');
        return label.test(chosen) && (await viewer.getByTestId('replay-start').isEnabled());
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}
