import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, DevToolsFrontEnd, InspectorPage, launchExtension, screenshotPath, serveFixtures, type FixtureServer, type InspectedPage, type LaunchedExtension } from './support';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');

// The other inspector tests open the panel's page as a tab; this one opens it where people use
// it, in Chromium's DevTools, where it learns its tab from devtools.inspectedWindow.
describe.skipIf(!chromiumAvailable)('the WebMCP panel inside Chromium DevTools', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true, devtools: true }), serveFixtures(fixturesDir)]);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  it('is added to DevTools and lists the inspected page’s tools, the late one included', async () => {
    const page = await extension.context.newPage();
    await page.goto(server.url('/native.html'));
    const devtools = await DevToolsFrontEnd.of(page);
    try {
      // The extension's devtools page adds the panel a moment after DevTools opens: ask until it is there.
      await expect
        .poll(
          async () => {
            await devtools.showExtensionPanel(extension.extensionId, 'WebMCP').catch(() => undefined);
            return devtools.frameText('devtools-panel.html', 1_000).catch(() => '');
          },
          { timeout: 30_000, interval: 250 },
        )
        .toContain('3 tools');
      const shown = await devtools.frameText('devtools-panel.html');
      expect(shown).toContain(page.url());
      for (const name of ['add_to_cart', 'search_products', 'track_order']) expect(shown).toContain(name);
    } finally {
      await devtools.close();
    }
  });
});

// The panel opened as a tab, with tools the test registers: what a run sends, and where focus goes.
describe.skipIf(!chromiumAvailable)('the run form in Chromium', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;
  let shown: InspectedPage;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixturesDir)]);
    shown = await InspectorPage.watchNewTab(extension, server.url('/native.html'));
    await shown.page.evaluate(() => {
      const page = window as unknown as { received: unknown[]; release: () => void };
      page.received = [];
      const context = (document as unknown as { modelContext: { registerTool(tool: unknown): void } }).modelContext;
      context.registerTool({
        name: 'list_orders',
        description: 'List the orders, filtered.',
        inputSchema: {
          type: 'object',
          properties: {
            includeArchived: { type: 'boolean', default: true },
            filters: { type: 'object', properties: { maxPrice: { type: 'number' }, status: { type: 'string' } } },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
        execute: async (args: unknown) => {
          page.received.push(args);
          return 'listed';
        },
      });
      context.registerTool({
        name: 'wait_for_release',
        description: 'Answers once the test lets it.',
        inputSchema: { type: 'object', properties: {} },
        execute: () => new Promise((resolve) => (page.release = () => resolve('released'))),
      });
    });
    await shown.inspector.waitForTools(['add_to_cart', 'list_orders', 'search_products', 'track_order', 'wait_for_release'], 5_000);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  it('sends only what the person set: the default of an optional boolean, no made-up objects or arrays', async () => {
    expect((await shown.inspector.run('list_orders')).text).toBe('listed');
    await expect(shown.page.evaluate(() => (window as unknown as { received: unknown[] }).received)).resolves.toEqual([{ includeArchived: true }]);
  });

  it('keeps keyboard focus on the form: Stop while the tool runs, "Run in page" again when it ends', async () => {
    const { inspector, page } = shown;
    await inspector.openRunForm('wait_for_release');
    const card = inspector.tool('wait_for_release');
    await card.getByRole('button', { name: 'Run in page' }).focus();
    await inspector.page.keyboard.press('Enter');
    await card.locator('.run-status').waitFor();
    const focused = () => inspector.page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName);
    await expect.poll(focused).toBe('Stop');
    // The panel shows Stop as soon as it asks; the page's tool starts a moment later, on its own side.
    await expect.poll(() => page.evaluate(() => typeof (window as unknown as { release?: () => void }).release)).toBe('function');
    await page.evaluate(() => (window as unknown as { release: () => void }).release());
    await card.locator('.run-result').waitFor();
    await expect.poll(focused).toBe('Run in page');
  });

  it('gives each section toggle a target 24 px tall at least', async () => {
    const heights = await shown.inspector.page.locator('details.disclosure > summary').evaluateAll((toggles) => toggles.map((toggle) => toggle.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(0);
    for (const height of heights) expect(height).toBeGreaterThanOrEqual(24);
  });

  it('runs a form that posts to its result page and shows what that page gives, its card gone with the form', async () => {
    const { page, inspector } = await InspectorPage.watchNewTab(extension, server.url('/agent/order-form.html'));
    await inspector.waitForTools(['place_order'], 5_000);
    await inspector.openRunForm('place_order');
    await inspector.field('place_order', 'qty').fill('2');
    await inspector.tool('place_order').getByRole('button', { name: 'Run in page' }).click();
    await page.waitForURL(/order-placed\.html\?qty=2$/);
    const shown = inspector.page.getByTestId('page-result');
    await shown.waitFor({ timeout: 10_000 });
    expect(await inspector.page.locator('.left-run').textContent()).toBe('place_order ran as the page changed: it loaded a page that gives its result (below).');
    expect(await shown.textContent()).toContain(page.url());
    expect(await shown.locator('.run-text').textContent()).toBe(
      JSON.stringify({ '@context': 'https://schema.org', '@type': 'Order', orderNumber: 'C-42', orderStatus: 'https://schema.org/OrderProcessing' }, null, 2),
    );
    await inspector.page.screenshot({ path: screenshotPath('inspector-page-result.png') });
    await page.close();
    await inspector.page.close();
  });

  it('says a form failed where the page it posted to came with an error status, as the browser tells the page', async () => {
    const { page, inspector } = await InspectorPage.watchNewTab(extension, server.url('/agent/order-form.html'));
    await inspector.waitForTools(['place_order'], 5_000);
    // An address the site does not have: its server answers 404.
    await page.evaluate(() => document.querySelector('form')!.setAttribute('action', 'no-such-page.html'));
    await inspector.openRunForm('place_order');
    await inspector.field('place_order', 'qty').fill('2');
    await inspector.tool('place_order').getByRole('button', { name: 'Run in page' }).click();
    await page.waitForURL(/no-such-page\.html\?qty=2$/);
    const shown = inspector.page.getByTestId('page-result');
    await shown.waitFor({ timeout: 10_000 });
    expect(await shown.getAttribute('data-status')).toBe('404');
    expect(await shown.textContent()).toBe(`The page it loaded, ${page.url()}, answered with an error (HTTP 404, Not Found): it shows what went wrong.`);
    await page.close();
    await inspector.page.close();
  });

  it('keeps saying what became of a tool run by hand that took its page away, naming the page it loaded', async () => {
    const { page, inspector } = await InspectorPage.watchNewTab(extension, server.url('/native.html'));
    const words = inspector.page.locator('.left-run');
    // The listings around a navigation come in more than one order: a few rounds meet them.
    for (const round of [1, 2, 3, 4]) {
      await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 10_000);
      await page.evaluate((next) => {
        const context = (document as unknown as { modelContext: { registerTool(tool: unknown): void } }).modelContext;
        context.registerTool({
          name: 'next_page',
          description: 'Goes to the next page (or reloads this one) and never answers.',
          inputSchema: { type: 'object', properties: {} },
          execute: () => {
            if (next % 2 === 0) location.reload();
            else location.search = `?round=${next}`;
            return new Promise(() => {});
          },
        });
      }, round);
      await inspector.tool('next_page').waitFor({ timeout: 10_000 });
      await inspector.openRunForm('next_page');
      await inspector.tool('next_page').getByRole('button', { name: 'Run in page' }).click();
      // The page loaded is the same site's: named, once read, with nothing of its data taken for the tool's result.
      const said = 'next_page was still running when the tab loaded the page below, so no result came back.';
      await expect.poll(() => words.textContent(), { timeout: 10_000 }).toBe(said);
      expect(await inspector.page.getByTestId('page-result').textContent()).toBe(
        `The tab loaded "Native WebMCP shop", ${page.url()}, while the tool ran: the page may show how it went.`,
      );
      // Still there once the new page has listed its tools, and a while after.
      await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 10_000);
      await inspector.page.waitForTimeout(1_000);
      expect(await words.textContent(), `round ${round}`).toBe(said);
    }
    await page.close();
    await inspector.page.close();
  });

  it('shows the filter of a long list of tools with its whole hint', async () => {
    const { page, inspector } = await InspectorPage.watchNewTab(extension, server.url('/native.html'));
    await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 10_000);
    await page.evaluate(() => {
      for (let index = 0; index < 6; index += 1) {
        (window as unknown as { register(tool: unknown): void }).register({ name: `extra_${index}`, description: 'One more tool.', inputSchema: { type: 'object', properties: {} }, execute: async () => 'ok' });
      }
    });
    const filter = inspector.page.getByTestId('tool-filter');
    await filter.waitFor({ timeout: 10_000 });
    const hintShown = await filter.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      // With room to spare: the placeholder is drawn a few per cent wider than a canvas measures it.
      return context.measureText(input.placeholder).width * 1.2 <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    });
    expect(hintShown).toBe(true);
    await Promise.all([page.close(), inspector.page.close()]);
  });

  it('keeps a tool with a long unbroken field name or description inside its card at 320 px, and a note naming that field: they wrap, nothing scrolls sideways; every kind of text box looks alike', async () => {
    const { page, inspector } = await InspectorPage.watchNewTab(extension, server.url('/native.html'));
    await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 10_000);
    const field = `field_name_that_is_very_long_and_unbroken_${'x'.repeat(40)}`;
    await page.evaluate((field) => {
      (window as unknown as { register(tool: unknown): void }).register({
        name: 'a_long_tool_name_that_goes_on_without_any_spaces_at_all_version_two',
        description: 'Echoes its field.',
        inputSchema: {
          type: 'object',
          properties: {
            [field]: { type: 'string', description: 'Anything.' },
            // Undescribed: the card's note names it.
            [`${field}_too`]: { type: 'string' },
            commit: { type: 'string', description: `The commit, such as ${'9f3c2a7b'.repeat(8)}.` },
            email: { type: 'string', format: 'email' },
          },
        },
        execute: async () => 'ok',
      });
    }, field);
    const name = 'a_long_tool_name_that_goes_on_without_any_spaces_at_all_version_two';
    await inspector.waitForTools(['a_long_tool_name_that_goes_on_without_any_spaces_at_all_version_two', 'add_to_cart', 'search_products', 'track_order'], 10_000);
    await inspector.openRunForm(name);
    await inspector.page.locator('.agent-query').fill('echo the long field');
    await inspector.page.setViewportSize({ width: 320, height: 900 });
    const overflow = await inspector.page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      past: [...document.querySelectorAll('main *')].filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((element) => element.className),
    }));
    expect(overflow).toEqual({ page: 0, past: [] });
    const looks = await inspector.page.locator('.field input:not([type="checkbox"]), .field .text-editor').evaluateAll((inputs) =>
      inputs.map((input) => {
        const style = getComputedStyle(input);
        return `${style.borderTopStyle} ${style.borderTopLeftRadius} ${style.fontSize} ${style.width}`;
      }),
    );
    expect(looks).toHaveLength(4);
    expect(new Set(looks).size).toBe(1);
    await page.close();
    await inspector.page.close();
  });

  it('logs a reload as one line, not every tool removed and added again', async () => {
    const { page, inspector } = await InspectorPage.watchNewTab(extension, server.url('/native.html'));
    await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 10_000);
    const lines = () => inspector.page.locator('section.change-log li').allTextContents();
    const before = await lines();
    await page.reload();
    await expect.poll(async () => (await lines()).some((line) => line.includes('page reloaded:')), { timeout: 10_000 }).toBe(true);
    // A moment for the late tool (the page registers it a moment after it loads) and any stray line.
    await page.waitForTimeout(2_500);
    const now = await lines();
    const added = now.slice(0, now.length - before.length).map((line) => line.replace(/^\S+( [AP]M)? /, ''));
    // One line for the page; the tools it offers again unchanged are not logged. (The late tool may
    // be missing from the new page's first report: then it is removed, then added again.)
    expect(added.filter((line) => line.startsWith('page'))).toEqual([`page reloaded: ${page.url()}`]);
    expect(added.filter((line) => /add_to_cart|search_products/.test(line))).toEqual([]);
    await page.close();
    await inspector.page.close();
  });
});
