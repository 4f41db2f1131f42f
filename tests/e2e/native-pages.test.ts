import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  currentServiceWorker,
  InspectorPage,
  launchExtension,
  screenshotPath,
  serveFixtures,
  stopServiceWorker,
  tabIdOf,
  type FixtureServer,
  type InspectedPage,
  type LaunchedExtension,
} from './support';
import { formSubmittedWithoutResult } from '@/lib/webmcp/form-waits-for-person';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');
if (!chromiumAvailable) console.warn('Chromium was not found: the extension e2e tests are skipped.');


/** The badge text of a tab, read in the service worker. */
function badgeText(worker: Worker, tabId: number): Promise<string> {
  return worker.evaluate((id) => (globalThis as unknown as BadgeGlobal).chrome.action.getBadgeText({ tabId: id }), tabId);
}
interface BadgeGlobal {
  chrome: { action: { getBadgeText(details: { tabId: number }): Promise<string> } };
}

/** The sites where the agent is off, as the settings keep them (what the options page lists). */
function offSites(worker: Worker): Promise<unknown> {
  return worker.evaluate(async () => {
    const { storage } = (globalThis as unknown as { chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } } }).chrome;
    const { settings } = await storage.local.get('settings');
    return (settings as { disabledSites?: unknown } | undefined)?.disabledSites;
  });
}

describe.skipIf(!chromiumAvailable)('pages with the browser’s own WebMCP, in the inspector', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixturesDir)]);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  const openFixture = (path: string): Promise<InspectedPage> => InspectorPage.watchNewTab(extension, server.url(path));

  describe('a native page: three tools, one late, one removed, one MCP-style', () => {
    let fixture: InspectedPage;
    beforeAll(async () => {
      fixture = await openFixture('native.html');
    });

    it('lists exactly the three tools, the one registered 300 ms later included', async () => {
      await fixture.inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
      expect(await fixture.inspector.changes()).toEqual(expect.arrayContaining(['added track_order', 'added search_products']));
      const card = fixture.inspector.tool('add_to_cart');
      await expect(card.locator('.badge').allTextContents()).resolves.toEqual(['consequential']);
      await expect(card.locator('.tool-meta').textContent()).resolves.toBe(`${server.origin} · frame 0 · native`);
      expect(await badgeText(await currentServiceWorker(extension.context), fixture.tabId)).toBe('3');
    });

    it('turns the agent off on the site from the side panel, by keyboard, and back on: the header and the toolbar count follow', async () => {
      const worker = await currentServiceWorker(extension.context);
      const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${fixture.tabId}`);
      const detail = panel.locator('.site-detail');
      await expect.poll(() => detail.textContent()).toBe('3 tools');

      await panel.getByRole('button', { name: `Turn agent off on ${server.origin}` }).focus();
      await panel.keyboard.press('Enter');
      await expect.poll(() => detail.textContent()).toBe('Agent off on this site');
      await expect.poll(() => badgeText(worker, fixture.tabId)).toBe('');
      expect(await offSites(worker)).toEqual([server.origin]);
      await expect(panel.getByTestId('agent-off').textContent()).resolves.toContain(`You turned it off for ${server.origin}`);

      // Focus went on to the way back, which the person takes by keyboard too.
      const turnOn = panel.getByRole('button', { name: 'Turn the agent on here' });
      await expect.poll(() => turnOn.evaluate((button) => button === document.activeElement)).toBe(true);
      await panel.keyboard.press('Enter');
      await expect.poll(() => detail.textContent()).toBe('3 tools');
      await expect.poll(() => badgeText(worker, fixture.tabId)).toBe('3');
      expect(await offSites(worker)).toEqual([]);
      await expect(panel.getByTestId('agent-off').count()).resolves.toBe(0);
      await panel.close();
    });

    it('keeps the agent off on every port of a site the options list without one, and says so where it is turned back on', async () => {
      const worker = await currentServiceWorker(extension.context);
      const host = new URL(server.origin).hostname;
      const options = await extension.openExtensionPage('options.html');
      const field = options.getByRole('textbox', { name: 'Add to: Sites where the agent is off (each with its subdomains)' });
      await field.fill(host);
      await field.press('Enter');
      await expect.poll(() => offSites(worker)).toEqual([`http://${host}`]);
      await expect.poll(() => badgeText(worker, fixture.tabId)).toBe('');
      const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${fixture.tabId}`);
      await expect.poll(() => panel.locator('.site-detail').textContent()).toBe('Agent off on this site');
      await panel.getByRole('button', { name: `Turn the agent on for http://${host} on every port` }).click();
      await expect.poll(() => offSites(worker)).toEqual([]);
      await expect.poll(() => badgeText(worker, fixture.tabId)).toBe('3');
      await Promise.all([options.close(), panel.close()]);
    });

    it('turns the agent off on a page that offers no tools yet: the tools it registers later stay uncounted', async () => {
      const bare = await openFixture('empty.html');
      const worker = await currentServiceWorker(extension.context);
      const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${bare.tabId}`);
      const detail = panel.locator('.site-detail');
      await expect.poll(() => detail.textContent()).toBe('0 tools');
      await panel.getByRole('button', { name: `Turn agent off on ${server.origin}` }).click();
      await expect.poll(() => detail.textContent()).toBe('Agent off on this site');
      expect(await offSites(worker)).toEqual([server.origin]);

      await bare.page.evaluate(() => {
        const context = (document as unknown as { modelContext: { registerTool(tool: object): void } }).modelContext;
        context.registerTool({ name: 'read_note', description: 'Read the note.', inputSchema: { type: 'object', properties: {} }, execute: async () => 'A note.' });
      });
      await bare.inspector.waitForTools(['read_note'], 2_000);
      expect(await badgeText(worker, bare.tabId)).toBe('');
      await expect.poll(() => detail.textContent()).toBe('Agent off on this site');

      await panel.getByRole('button', { name: 'Turn the agent on here' }).click();
      await expect.poll(() => detail.textContent()).toBe('1 tool');
      await expect.poll(() => badgeText(worker, bare.tabId)).toBe('1');
      await panel.close();
      await bare.inspector.page.close();
      await bare.page.close();
    });

    it('names a page served sandboxed by its address\'s site: it offers no tools, and the agent turns off on that site', async () => {
      const sandboxed = await openFixture('sandboxed.html');
      expect(await sandboxed.page.evaluate(() => origin)).toBe('null');
      const worker = await currentServiceWorker(extension.context);
      const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${sandboxed.tabId}`);
      const detail = panel.locator('.site-detail');
      await expect.poll(() => detail.textContent()).toBe('0 tools');
      await panel.getByRole('button', { name: `Turn agent off on ${server.origin}` }).click();
      await expect.poll(() => detail.textContent()).toBe('Agent off on this site');
      expect(await offSites(worker)).toEqual([server.origin]);
      await panel.getByRole('button', { name: 'Turn the agent on here' }).click();
      await expect.poll(() => offSites(worker)).toEqual([]);
      await panel.close();
      await sandboxed.inspector.page.close();
      await sandboxed.page.close();
    });

    it('runs a tool in the page and shows its JSON result pretty-printed, with the time it took', async () => {
      const run = await fixture.inspector.run('search_products', { query: 'mug', limit: '2' });
      expect(run.meta).toMatch(/^Result · took \d+ ms$/);
      expect(JSON.parse(run.text)).toEqual({ query: 'mug', products: ['Blue mug', 'Red mug'] });
      expect(run.text).toContain('\n  "products"');
    });

    it('shows an MCP-style result as its text, and the page acts', async () => {
      const run = await fixture.inspector.run('add_to_cart', { product: 'Red mug', quantity: '2', gift: true });
      expect(run).toMatchObject({ text: 'Added 2 × Red mug to the cart as a gift.', isError: false });
      await expect(fixture.page.locator('#cart').textContent()).resolves.toBe('Added 2 × Red mug to the cart as a gift.');
    });

    it('saves a screenshot of the inspector for the README', async () => {
      const page = fixture.inspector.page;
      await fixture.inspector.openSection('search_products', 'Schema');
      await page.getByLabel('Request').fill('find a blue mug');
      await page.setViewportSize({ width: 1000, height: 1400 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: screenshotPath('inspector.png') });
      await page.getByLabel('Request').fill('');
    });

    it('checks the arguments with validateArgs before running, with the same messages', async () => {
      const inspector = fixture.inspector;
      await inspector.openRunForm('track_order');
      const card = inspector.tool('track_order');
      await card.getByRole('button', { name: 'Run in page' }).click();
      await expect(inspector.problem('track_order')).resolves.toBe('Missing required argument "order".');
      await inspector.field('track_order', 'order').fill('A-17');
      await inspector.field('track_order', 'details').fill('{"carrier": true, "history": ["packed"]}');
      await card.getByRole('button', { name: 'Run in page' }).click();
      await card.locator('.run-result').waitFor();
      await expect(card.locator('.run-text').textContent()).resolves.toBe('Order A-17 is on its way.');
      const search = inspector.tool('search_products');
      await inspector.field('search_products', 'limit').fill('50');
      await search.getByRole('button', { name: 'Run in page' }).click();
      await expect(inspector.problem('search_products')).resolves.toBe('"limit" must be at most 20.');
    });

    it('shows the schema as given and compacted, with both sizes', async () => {
      const card = fixture.inspector.tool('search_products');
      await fixture.inspector.openSection('search_products', 'Schema');
      await card.locator('.schema').waitFor();
      const headings = await card.locator('.schema h4').allTextContents();
      expect(headings[0]).toMatch(/^As given \(\d+ characters\)$/);
      expect(headings[1]).toMatch(/^Compacted for the model \(\d+ characters\)$/);
      expect(JSON.parse((await card.locator('.schema-compact').textContent()) ?? '')).toEqual({
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for' },
          limit: { type: 'integer', minimum: 1, maximum: 20, description: 'Most products listed' },
        },
        required: ['query'],
      });
    });

    it('shows what the agent would see for a request, with scores', async () => {
      await fixture.inspector.page.getByLabel('Request').fill('add two mugs to the cart');
      // The best match by the agent's ranker, wherever the page's order puts it.
      const best = fixture.inspector.page.locator('.ranking li[data-best]');
      await expect(best.locator('.ranking-name').textContent()).resolves.toBe('add_to_cart');
      await expect(best.locator('.ranking-score').textContent()).resolves.toMatch(/^score \d+(\.\d\d)?$/);
      await expect(fixture.inspector.page.getByTestId('ranking-note').textContent()).resolves.toMatch(/page's order|best first/);
      await fixture.inspector.page.getByLabel('Request').fill('');
    });

    it('copies the tool list as JSON', async () => {
      await fixture.inspector.page.getByRole('button', { name: 'Copy as JSON' }).click();
      // The status region is always there (to be heard); its words come once the copy is done.
      await expect.poll(() => fixture.inspector.page.locator('.copy-status').textContent()).toBe('Copied 3 tools as JSON.');
    });

    it('says a tool that returned nothing finished (the browser hands over the word "undefined")', async () => {
      await fixture.page.evaluate(() => {
        const page = window as unknown as { register(tool: object): void; unregisterTool(name: string): void };
        page.register({ name: 'empty_cart', description: 'Empty the cart.', execute: async () => void (document.getElementById('cart')!.textContent = 'The cart is empty.') });
      });
      await fixture.inspector.waitForTools(['add_to_cart', 'empty_cart', 'search_products', 'track_order'], 2_000);
      const run = await fixture.inspector.run('empty_cart', {});
      expect(run).toMatchObject({ text: 'The tool finished without a result.', isError: false });
      await fixture.page.evaluate(() => (window as unknown as { unregisterTool(name: string): void }).unregisterTool('empty_cart'));
      await fixture.inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
    });

    it('follows a tool removed by aborting its signal within a second', async () => {
      await fixture.page.evaluate(() => (window as unknown as { unregisterTool(name: string): void }).unregisterTool('search_products'));
      await fixture.inspector.waitForTools(['add_to_cart', 'track_order'], 1_000);
      expect((await fixture.inspector.changes())[0]).toBe('removed search_products');
    });

    it('shows a direction override in a result by its code, the words after it in their own order', async () => {
      const run = await fixture.inspector.run('track_order', { order: '\u202Eevil\u202C' });
      expect(run.text).toBe('Order \u202Eevil\u202C is on its way.');
      const text = fixture.inspector.tool('track_order').locator('.run-result .run-text');
      expect(await text.locator('.hidden-character').evaluateAll((marks) => marks.map((mark) => (mark as HTMLElement).dataset.code))).toEqual(['U+202E', 'U+202C']);
      // Drawn left to right: the "e" of "evil" before its "l", as a person reads it (the override would put it last).
      const left = await text.evaluate((element) => {
        const node = [...element.querySelectorAll('*'), element].flatMap((each) => [...each.childNodes]).find((child) => child.nodeType === 3 && child.textContent!.includes('evil'))!;
        const at = (offset: number) => {
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + 1);
          return range.getBoundingClientRect().left;
        };
        const start = node.textContent!.indexOf('evil');
        return { e: at(start), l: at(start + 3) };
      });
      expect(left.e).toBeLessThan(left.l);
    });

    it('keeps the tools across a service-worker restart, and still runs them', async () => {
      const before = await currentServiceWorker(extension.context);
      await before.evaluate(() => ((globalThis as { testMark?: string }).testMark = 'before the restart'));
      await stopServiceWorker(extension.context);
      // The run waits for the inspector to reconnect to the new worker, which reads the tools back.
      const run = await fixture.inspector.run('track_order', { order: 'B-2' });
      expect(run.text).toBe('Order B-2 is on its way.');
      const after = await currentServiceWorker(extension.context);
      expect(await after.evaluate(() => (globalThis as { testMark?: string }).testMark)).toBeUndefined();
      await fixture.inspector.waitForTools(['add_to_cart', 'track_order'], 1_000);
    });

    it('asks for no reload of a new tab at about:blank or a data: page, whose address keeps every extension out', async () => {
      for (const address of ['about:blank', 'data:text/html,<p>plain</p>']) {
        const { page, inspector } = await InspectorPage.watchNewTab(extension, address);
        await inspector.page.getByText('This tab offers no WebMCP tools.').waitFor();
        // The background's answer about the page comes within 2 s.
        await inspector.page.waitForTimeout(2_500);
        expect(await inspector.page.getByText('needs a reload first').count()).toBe(0);
        await inspector.page.close();
        await page.close();
      }
    });

    it('forgets the tools when the tab navigates away, and when it closes', async () => {
      await fixture.page.goto(server.url('frame-child.html').replace('frame-child', 'missing'));
      await fixture.inspector.waitForTools([], 1_000);
      await fixture.inspector.page.getByText('This tab offers no WebMCP tools.').waitFor();
      expect(await badgeText(await currentServiceWorker(extension.context), fixture.tabId)).toBe('');
      // The extension runs in that page (the background asks it; "not there" would come within 2 s):
      // no reload is suggested.
      await fixture.inspector.page.waitForTimeout(2_500);
      expect(await fixture.inspector.page.getByText('needs a reload first').count()).toBe(0);
      await fixture.page.goto(server.url('native.html'));
      await fixture.inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
      await fixture.page.close();
      const worker = await currentServiceWorker(extension.context);
      await expect
        .poll(() => worker.evaluate(async () => Object.keys(await (globalThis as unknown as StorageGlobal).chrome.storage.session.get(null))))
        .not.toContain(`webmcp-tab-tools:${fixture.tabId}`);
    });
  });

  it('forgets the tools of a page whose renderer crashed once a call finds it gone, or the inspector opens on it', async () => {
    const crashPage = async () => {
      const { page, inspector, tabId } = await openFixture('native.html');
      await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
      const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
      // The renderer never answers this: it is gone.
      void (await page.context().newCDPSession(page)).send('Page.crash').catch(() => undefined);
      await crashed;
      return { page, inspector, tabId };
    };
    // Chrome tells extensions nothing of a crash: the first call learns it, and the tools go.
    const first = await crashPage();
    await first.inspector.openRunForm('track_order');
    await first.inspector.field('track_order', 'order').fill('C-3');
    await first.inspector.tool('track_order').getByRole('button', { name: 'Run in page' }).click();
    await first.inspector.waitForTools([], 5_000);
    await first.inspector.page.getByText('This tab offers no WebMCP tools.').waitFor();
    expect(await badgeText(await currentServiceWorker(extension.context), first.tabId)).toBe('');
    // An inspector opened on the crashed tab asks its frames again; none answers.
    const second = await crashPage();
    const reopened = await InspectorPage.open(extension, second.tabId);
    await reopened.waitForTools([], 2_000);
    expect(await badgeText(await currentServiceWorker(extension.context), second.tabId)).toBe('');
    await Promise.all([first.page, second.page, first.inspector.page, second.inspector.page, reopened.page].map((page) => page.close()));
  });

  it('shows each page’s own tools going Back and Forward, and runs a call in the page shown', async () => {
    const { page, inspector } = await openFixture('native.html');
    await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
    await page.goto(server.url('declarative.html'));
    await inspector.waitForTools(['book_table'], 2_000);
    // Restored from the back/forward cache or loaded again: the page's tools come back either way.
    await page.goBack();
    await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
    expect((await inspector.run('track_order', { order: 'C-3' })).text).toBe('Order C-3 is on its way.');
    await page.goForward();
    await inspector.waitForTools(['book_table'], 2_000);
    await page.close();
  });

  it('keeps each frame’s own tools: a same-origin frame’s tool is listed once, run in its frame', async () => {
    const { inspector } = await openFixture('frames.html');
    await inspector.waitForTools(['frame_tool', 'top_tool'], 2_000);
    await expect(inspector.tool('frame_tool').locator('.tool-meta').textContent()).resolves.toMatch(/ · frame [1-9]\d* · native$/);
    expect((await inspector.run('frame_tool')).text).toBe('from the child frame');
    expect((await inspector.run('top_tool')).text).toBe('from the top frame');
  });

  it('lists and runs the tools of frames the page writes itself (srcdoc, about:blank); a sandboxed one has none, allowed tools or not', async () => {
    const { inspector } = await openFixture('written-frames.html');
    await inspector.waitForTools(['chat_open', 'preview_refresh'], 3_000);
    const { origin } = new URL(server.url('written-frames.html'));
    expect((await inspector.run('preview_refresh')).text).toBe(`preview refreshed in ${origin}`);
    expect((await inspector.run('chat_open')).text).toBe('chat opened');
    // Listed by its own frame, in its own frame, with the page's origin: no label of another site.
    await expect(inspector.tool('chat_open').locator('.tool-meta').textContent()).resolves.toMatch(/ · frame [1-9]\d* · native$/);
    await expect(inspector.tool('chat_open').textContent()).resolves.not.toContain('null');
    // The sandboxed frame not allowed tools: the browser itself refuses its tool, which never shows up.
    // The one allowed tools: its opaque origin could be any site's, so the extension refuses it.
    expect(await inspector.toolNames()).toEqual(['chat_open', 'preview_refresh']);
    await expect.poll(() => inspector.dropped(), { timeout: 3_000 }).toEqual([
      { name: 'vault_balance', reason: 'this frame has an opaque origin (it is sandboxed, or a data: address), so no site vouches for its tools' },
    ]);
  });

  it('answers a call of a form without toolautosubmit once the browser has filled it, and leaves the sending to the person', async () => {
    const { page, inspector } = await openFixture('declarative-manual.html');
    await inspector.waitForTools(['send_message'], 2_000);
    const run = await inspector.run('send_message', { message: 'Is the blue mug back in stock?' });
    expect(run).toMatchObject({ isError: false, text: 'The form is filled in and waits for the person to submit it.' });
    await expect(page.locator('textarea[name=message]').inputValue()).resolves.toBe('Is the blue mug back in stock?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('#sent').textContent()).resolves.toBe('Sent: Is the blue mug back in stock?');
  });

  it('gives the result of a script\'s tool that shares its name with a form, which stays untouched', async () => {
    const { page, inspector } = await openFixture('script-tool-beside-form.html');
    await inspector.waitForTools(['search_flights'], 2_000);
    await expect(inspector.tool('search_flights').locator('.tool-meta').textContent()).resolves.toMatch(/ · native$/);
    const run = await inspector.run('search_flights', { from: 'LIS', to: 'OPO' });
    expect(run).toMatchObject({ isError: false, text: '3 flights from LIS to OPO' });
    await expect(page.locator('input[name=from]').inputValue()).resolves.toBe('');
  });

  it('lists a declarative <form toolname> the browser exposes, and runs it', async () => {
    const { page, inspector } = await openFixture('declarative.html');
    await inspector.waitForTools(['book_table'], 2_000);
    await expect(inspector.tool('book_table').locator('.tool-meta').textContent()).resolves.toMatch(/ · declarative$/);
    const run = await inspector.run('book_table', { name: 'Ada', guests: '2', time: '20:00', terrace: true });
    expect(run.isError).toBe(false);
    expect(run.text).toContain('Booked a table for 2 under Ada at 20:00 on the terrace.');
    await expect(page.locator('#confirmation').textContent()).resolves.toBe('Booked a table for 2 under Ada at 20:00 on the terrace.');
    await page.evaluate(() => document.getElementById('booking')?.remove());
    await inspector.waitForTools([], 1_000);
  });

  it('runs a form with a group of checkboxes from the inspector, a box for each choice: the form gets those checked', async () => {
    const { page, inspector } = await openFixture('declarative-order.html');
    await inspector.waitForTools(['order_pizza'], 2_000);
    const run = await inspector.run('order_pizza', { name: 'Ada', extra: ['olives', 'basil'] });
    expect(run.isError).toBe(false);
    expect(JSON.parse(run.text)).toMatchObject({ name: 'Ada', extra: ['olives', 'basil'] });
    await expect(page.locator('input[name=extra]:checked').evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value))).resolves.toEqual(['olives', 'basil']);
  });

  it('sends a form exactly what each call names: what an earlier call left goes back to the page\'s default, what the person typed stays', async () => {
    const page = await extension.context.newPage();
    await page.goto(server.url('declarative-order.html'));
    // The person writes a note before asking.
    await page.locator('input[name=notes]').fill('leave at the door');
    const tabId = await tabIdOf(page);
    const first = { name: 'Ada', size: 'large', extra: ['olives'], gift: true, grams: 75 };
    await useReplayEngine(await currentServiceWorker(extension.context), {
      // The second call is refused by the form (cheese comes in steps of 25): nothing is sent.
      replies: [toolCall('order_pizza', first), toolCall('order_pizza', { name: 'Bo', grams: 30 }), toolCall('order_pizza', { name: 'Cy' }), 'Two orders sent.'],
    });
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await ask(panel, 'order a large pizza for Ada, then one for Bo and one for Cy');
    for (const call of [0, 1, 2]) await panel.getByTestId('tool-card').nth(call).getByTestId('approve-once').click({ timeout: 15_000 });
    await panel.getByTestId('turn').getByText('Two orders sent.').waitFor({ timeout: 15_000 });
    const cards = panel.getByTestId('tool-card');
    expect(await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state')))).toEqual(['done', 'failed', 'done']);
    const sent = await panel.getByTestId('tool-result').allTextContents();
    expect(JSON.parse(sent[0]!)).toEqual({ name: 'Ada', size: 'large', extra: 'olives', gift: 'yes', qty: '1', grams: '75', notes: 'leave at the door' });
    // The page's own defaults, not Ada's size, extras, gift and cheese, nor Bo's refused cheese; the person's note stays.
    expect(JSON.parse(sent.at(-1)!)).toEqual({ name: 'Cy', size: 'medium', extra: 'basil', qty: '1', grams: '50', notes: 'leave at the door' });
    await Promise.all([panel.close(), page.close()]);
  });

  it('keeps what the person wrote in a field a call filled, even where they wrote the same again', async () => {
    const page = await extension.context.newPage();
    await page.goto(server.url('declarative-order.html'));
    const tabId = await tabIdOf(page);
    await useReplayEngine(await currentServiceWorker(extension.context), { replies: [toolCall('order_pizza', { name: 'Ada', notes: 'ring twice' }), 'Ordered.'] });
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await ask(panel, 'order a large pizza for Ada');
    await panel.getByTestId('approve-once').click({ timeout: 15_000 });
    await panel.getByTestId('turn').getByText('Ordered.').waitFor({ timeout: 15_000 });
    // The person writes the same note again: it is theirs now, not the call's.
    await page.bringToFront();
    await page.locator('input[name=notes]').fill('ring twice');
    await useReplayEngine(await currentServiceWorker(extension.context), { replies: [toolCall('order_pizza', { name: 'Cy' }), 'Ordered again.'] });
    await ask(panel, 'and one for Cy');
    await panel.getByTestId('turn').last().getByTestId('approve-once').click({ timeout: 15_000 });
    await panel.getByTestId('turn').last().getByText('Ordered again.').waitFor({ timeout: 15_000 });
    expect(JSON.parse((await panel.getByTestId('tool-result').last().textContent()) ?? '')).toMatchObject({ name: 'Cy', notes: 'ring twice' });
    await Promise.all([panel.close(), page.close()]);
  });

  it('leaves the form as it was where the form refuses a call, the fields the call named too', async () => {
    const { page, inspector } = await openFixture('declarative-order.html');
    await inspector.waitForTools(['order_pizza'], 2_000);
    await page.locator('input[name=notes]').fill('leave at the door');
    const form = () => page.locator('#order').evaluate((element) => Object.fromEntries(new FormData(element as HTMLFormElement)));
    const before = await form();
    const run = await inspector.run('order_pizza', { name: 'Bo', grams: '30' }, 10_000, { anyway: true });
    expect(run).toMatchObject({ isError: true, text: expect.stringMatching(/^The form did not accept the values \(grams: /) });
    expect(await form()).toEqual(before);
    await expect(page.locator('#sent').textContent()).resolves.toBe('');
  });

  it('tells the model what the form says and the browser\'s schema leaves out, or words in keywords it does not read: a group\'s legend, whole numbers, a number\'s steps', async () => {
    const { inspector } = await openFixture('declarative-order.html');
    await inspector.waitForTools(['order_pizza'], 2_000);
    const card = inspector.tool('order_pizza');
    await inspector.openSection('order_pizza', 'Schema');
    await card.locator('.schema-compact').waitFor();
    const { properties } = JSON.parse((await card.locator('.schema-compact').textContent()) ?? '');
    expect(properties.extra.description).toBe('Extras');
    expect(properties.qty).toEqual({ type: 'integer', minimum: 1, maximum: 9, description: 'How many' });
    expect(properties.grams).toEqual({ type: 'integer', minimum: 0, description: '(a multiple of 25) Cheese in grams' });
    // What the browser said stays.
    expect(properties.name).toEqual({ type: 'string', description: 'Name' });
    expect((await card.locator('.finding').allTextContents()).filter((finding) => finding.includes('"extra" has no description'))).toEqual([]);
  });

  it('tells the author of the forms the browser ignores, with the likeliest reason', async () => {
    const { inspector } = await openFixture('declarative-ignored.html');
    await inspector.waitForTools(['subscribe'], 2_000);
    await expect.poll(() => inspector.dropped(), { timeout: 2_000 }).toEqual([
      { name: 'subscribe', reason: expect.stringContaining('another form of this page has this name') },
      { name: 'Book a table', reason: expect.stringContaining('its toolname must be 1 to 128 letters') },
      { name: 'contact', reason: expect.stringContaining('it has no tooldescription') },
    ]);
  });

  it('warns the author of a form field without a name, and names it by its label when it refuses a call', async () => {
    const { inspector } = await openFixture('declarative-unnamed.html');
    await inspector.waitForTools(['contact_us'], 2_000);
    await expect(inspector.tool('contact_us').locator('.finding').allTextContents()).resolves.toContain(
      'Warning: The field "Your name" has no name: no agent can fill it, and it is required, so every call fails. Give it a name.',
    );
    const run = await inspector.run('contact_us', { message: 'Is the blue mug back?' });
    expect(run).toMatchObject({ isError: true, text: expect.stringMatching(/^The form did not accept the values \("Your name", a field without a name: .+\)\.$/) });
  });

  it('says which pattern a field wants when the form refuses a value for it, which the browser\'s words leave out, and refuses a value past maxlength', async () => {
    const { page, inspector } = await openFixture('declarative-constraints.html');
    await inspector.waitForTools(['sign_up'], 2_000);
    const run = await inspector.run('sign_up', { code: 'abc12', letters: 'weekly' }, 10_000, { anyway: true });
    expect(run).toMatchObject({
      refused: '"code" must match [A-Z]{3}[0-9]{2}. The agent does not check this, and would send it.',
      isError: true,
      text: expect.stringMatching(/^The form did not accept the values \(code: .+ It must match the pattern \[A-Z\]\{3\}\[0-9\]\{2\} \(Three capital letters, then two digits\)\.\)\.$/),
    });
    await expect(page.locator('#sent').textContent()).resolves.toBe('');
    // The browser fills the form by script, which maxlength does not hold back: the extension does.
    const tooLong = await inspector.run('sign_up', { code: 'ABC12', nick: 'toolongnick', letters: 'weekly' }, 10_000, { anyway: true });
    expect(tooLong).toMatchObject({ refused: expect.stringContaining('"nick"'), isError: true, text: '"nick" must be at most 5 characters, not 11 ("toolongnick").' });
    await expect(page.locator('#sent').textContent()).resolves.toBe('');
    // Nor does it keep a slider's value on its steps (50 would be sent as 51): the extension refuses it, as its own form reader does.
    const offStep = await inspector.run('sign_up', { code: 'ABC12', nick: 'Ada', letters: 'weekly', volume: '50' });
    expect(offStep).toMatchObject({ isError: true, text: '"volume" must be a number from 1 to 99 in steps of 2, not 50.' });
    await expect(page.locator('#sent').textContent()).resolves.toBe('');
    expect(await inspector.run('sign_up', { code: 'ABC12', nick: 'Ada', letters: 'weekly', volume: '49' })).toMatchObject({ isError: false, text: 'Signed up ABC12.' });
    expect(JSON.parse((await page.locator('#sent').textContent()) ?? '')).toMatchObject({ volume: '49' });
  });

  it('offers a required select\'s choices without its placeholder ("Choose…"), which the browser lists as one', async () => {
    const { inspector } = await openFixture('declarative-constraints.html');
    await inspector.waitForTools(['sign_up'], 2_000);
    const card = inspector.tool('sign_up');
    await inspector.openSection('sign_up', 'Schema');
    await card.locator('.schema-compact').waitFor();
    const compact = JSON.parse((await card.locator('.schema-compact').textContent()) ?? '');
    expect(compact.properties.letters.enum).toEqual(['weekly', 'monthly']);
    // The length Chrome leaves out, which the model's schema keeps only in words.
    expect(compact.properties.nick.description).toBe('(at most 5 characters) Nickname');
  });

  it('marks a form the browser reads in an open shadow root as a form, and runs it there', async () => {
    const { page, inspector } = await openFixture('declarative-components.html');
    await inspector.waitForTools(['book_slot', 'search_menu'], 2_000);
    await expect(inspector.tool('search_menu').locator('.tool-meta').textContent()).resolves.toMatch(/ · declarative$/);
    // The page handles the submit itself without `respondWith`: the browser fills and submits the
    // form, then calls that an error of the page. The call says the page took it without a word
    // (a model told it failed would submit it again).
    const run = await inspector.run('search_menu', { q: 'soup' });
    await expect(page.locator('#searched').textContent()).resolves.toBe('Searched for soup.');
    expect(run).toMatchObject({ isError: false, text: formSubmittedWithoutResult });
  });
});

interface StorageGlobal {
  chrome: { storage: { session: { get(keys: null): Promise<Record<string, unknown>> } } };
}
