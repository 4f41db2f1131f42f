import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumAvailable, currentServiceWorker, launchExtension, serveFixtures, tabIdOf, type FixtureServer, type LaunchedExtension } from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';
import { orderWithResultInNewTab } from './support/new-tab-form';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/agent');

describe.skipIf(!chromiumAvailable)('the agent\'s limits: a slow tool, navigation, a service worker that stops', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixtures)]);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  async function openPageAndPanel(): Promise<{ page: Page; panel: Page }> {
    const page = await extension.context.newPage();
    await page.goto(server.url('/slow-tools.html'));
    const tabId = await tabIdOf(page);
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    return { page, panel };
  }

  /** What session storage holds of the tabs' chats, as one JSON text. */
  const storedChats = (panel: Page) =>
    panel.evaluate(async () => {
      const { storage } = (globalThis as unknown as { chrome: { storage: { session: { get(key: null): Promise<Record<string, unknown>> } } } }).chrome;
      const stored = Object.entries(await storage.session.get(null)).filter(([key]) => key.startsWith('agentSession:') || key.startsWith('agentTurn:') || key.startsWith('agentItem:'));
      return JSON.stringify(stored);
    });

  const lastTurnOutcome = (panel: Page) => panel.getByTestId('turn-notice').last().getAttribute('data-outcome');

  it('Stop ends a run within a second while a tool hangs', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`Waiting.${toolCall('wait_forever', {})}`, 'never'],
    });
    const { panel, page } = await openPageAndPanel();
    await ask(panel, 'wait for it');
    await panel.locator('[data-testid=tool-card][data-state=running]').waitFor();
    await expect.poll(() => page.locator('#calls').textContent()).toBe('1');
    const pressed = Date.now();
    await panel.getByTestId('stop').click();
    await panel.locator('[data-testid=turn-notice][data-outcome=stopped]').waitFor({ timeout: 1000 });
    expect(Date.now() - pressed).toBeLessThan(1000);
    expect(await panel.getByTestId('chat-input').isEnabled()).toBe(true);
  });

  it('a tool that does not answer in time stops the run with a clear message, whose "Open the options" opens them at the time limit, in the options tab where it already is', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [toolCall('wait_forever', {}), 'never'],
      settings: { toolTimeoutSeconds: 1 },
    });
    const { panel } = await openPageAndPanel();
    await ask(panel, 'wait');
    const notice = panel.locator('[data-testid=turn-notice][data-outcome=tool-timeout]');
    await notice.waitFor({ timeout: 5000 });
    expect(await notice.textContent()).toContain('the tool "wait_forever" did not answer within 1 s');
    expect(await notice.textContent()).toContain('raise "Seconds a tool may take before the run stops" in the options');

    const focusedPlace = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.place);
    const opened = extension.context.waitForEvent('page');
    await notice.getByTestId('turn-open-options').click();
    const options = await opened;
    await expect.poll(() => focusedPlace(options), { timeout: 5000 }).toBe('tool-timeout');
    expect(await options.evaluate(() => document.activeElement?.closest('label')?.textContent)).toContain('Seconds a tool may take before the run stops');
    // The place is taken out of the address: asked for again, it is a change the page hears.
    expect(new URL(options.url()).hash).toBe('');

    // The person leaves the field, moves the options tab to a window of its own, and asks again from the panel.
    await options.evaluate(() => (document.activeElement as HTMLElement).blur());
    await panel.evaluate(async () => {
      type Chrome = { tabs: { query(query: { url: string }): Promise<{ id?: number }[]> }; windows: { create(data: { tabId?: number }): Promise<unknown> } };
      const { tabs, windows } = (globalThis as unknown as { chrome: Chrome }).chrome;
      const [tab] = await tabs.query({ url: location.origin + '/options.html*' });
      await windows.create({ tabId: tab!.id });
    });
    const pagesBefore = extension.context.pages().length;
    await notice.getByTestId('turn-open-options').click();
    await expect.poll(() => focusedPlace(options), { timeout: 5000 }).toBe('tool-timeout');
    expect(extension.context.pages()).toHaveLength(pagesBefore);
    await options.close();
  });

  it('the tab navigating away during a run stops it; the conversation stays and a new request works', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`Looking it up.${toolCall('slow_lookup', { topic: 'tea' })}`, 'never'],
    });
    const { panel, page } = await openPageAndPanel();
    await ask(panel, 'look up tea');
    await panel.locator('[data-testid=tool-card][data-state=running]').waitFor();
    await page.goto(server.url('/slow-tools.html?again'));
    await expect.poll(() => lastTurnOutcome(panel), { timeout: 3000 }).toBe('navigated');
    expect(await panel.getByTestId('turn').first().textContent()).toContain('Looking it up.');

    await useReplayEngine(await currentServiceWorker(extension.context), { replies: ['Still here.'] });
    await ask(panel, 'are you there?');
    await panel.getByTestId('turn').getByText('Still here.').waitFor({ timeout: 5000 });
  });

  it('a page the person reloads while a tool runs stops the run without saying the tool loaded it', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`Looking it up.${toolCall('slow_lookup', { topic: 'tea' })}`, 'never'],
    });
    const { panel, page } = await openPageAndPanel();
    await ask(panel, 'look up tea');
    await panel.locator('[data-testid=tool-card][data-state=running]').waitFor();
    await page.reload();
    await expect.poll(() => lastTurnOutcome(panel), { timeout: 3000 }).toBe('navigated');
    expect(await panel.getByTestId('turn-notice').last().textContent()).toContain('Stopped: the page reloaded, went to another page or was closed.');
    // The card says the page gave no answer, not that the lookup loaded a page (as a form's post does).
    await expect.poll(() => panel.getByTestId('tool-card').last().getAttribute('data-state')).toBe('unanswered');
    await page.waitForLoadState('load');
    await new Promise((done) => setTimeout(done, 500));
    expect(await panel.getByTestId('turn').last().textContent()).not.toContain('New page loaded');
  });

  it('the tab giving way to Chrome\'s error page (a host that does not resolve) during a run stops it as a navigation does', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`Looking it up.${toolCall('slow_lookup', { topic: 'tea' })}`, 'Done.'],
    });
    const { panel, page } = await openPageAndPanel();
    await ask(panel, 'look up tea');
    await panel.locator('[data-testid=tool-card][data-state=running]').waitFor();
    await page.goto('http://no-such-host.invalid/').catch(() => {});
    await expect.poll(() => lastTurnOutcome(panel), { timeout: 5000 }).toBe('navigated');
    expect(await panel.getByTestId('turn').last().textContent()).not.toContain('Done.');
  });

  it('a form that posts to its result page: the run ends there, and the card shows what that page gives', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`Ordering.${toolCall('place_order', { qty: 2 })}`, 'never'],
    });
    const page = await extension.context.newPage();
    await page.goto(server.url('/order-form.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    await ask(panel, 'order two mugs');
    await panel.locator('[data-testid=tool-card][data-name=place_order] [data-testid=approve-once]').click({ timeout: 10_000 });
    await expect.poll(() => lastTurnOutcome(panel), { timeout: 10_000 }).toBe('navigated');
    await page.waitForURL(/order-placed\.html\?qty=2$/);
    const card = panel.locator('[data-testid=tool-card][data-name=place_order]');
    // The call may have answered "navigated" before the new page was read: its card is updated then.
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toContain('"orderNumber":"C-42","orderStatus":"https://schema.org/OrderProcessing"');
    expect(await card.getAttribute('data-state')).toBe('done');
    expect(await panel.getByTestId('turn-notice').last().textContent()).toContain('The result that page gives is shown with the call.');

    // The result page offers no tools, but the chat was held on its site: it can be asked about.
    await expect.poll(() => panel.getByTestId('empty-no-tools').textContent(), { timeout: 5000 }).toBe(
      'This page offers no tools right now. You can still ask about this chat.',
    );
    expect(await panel.getByTestId('chat-input').getAttribute('placeholder')).toBe('Ask about this chat (this page offers no tools)…');
    await useReplayEngine(await currentServiceWorker(extension.context), { replies: ['Yes: order C-42 is being processed.'] });
    await ask(panel, 'did it go through?');
    await panel.getByTestId('turn').last().getByTestId('prose').getByText('Yes: order C-42 is being processed.').waitFor({ timeout: 10_000 });
  });

  it('a form whose submit only goes to the next page: its card says it was sent and names that page, and the chat goes on there', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [toolCall('open_door', {}), 'never'],
    });
    const page = await extension.context.newPage();
    await page.goto(server.url('/doors.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    await ask(panel, 'open the door');
    await panel.locator('[data-testid=tool-card][data-name=open_door] [data-testid=approve-once]').click({ timeout: 10_000 });
    await page.waitForURL(/door-room\.html/);
    const card = panel.locator('[data-testid=tool-card][data-name=open_door]');
    await expect.poll(() => card.locator('.tool-state').textContent(), { timeout: 10_000 }).toBe('Sent');
    expect(await card.getAttribute('data-state')).toBe('done');
    expect(await panel.getByTestId('turn-notice').last().textContent()).toContain('"open_door" sent its form and the tab loaded a new page, "The Reading Room", so the run ended here.');
    await card.locator('summary').click();
    // Without its query, where a form sent by GET puts its values.
    expect(await card.textContent()).toContain(`The form was sent, and the tab loaded "The Reading Room" (${server.url('/door-room.html')}).`);

    // The room's own tool: the chat carries on there.
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [toolCall('read_shelf', {}), 'The shelves are full.'],
    });
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    await ask(panel, 'what is on the shelf?');
    await panel.getByTestId('turn').last().getByTestId('prose').getByText('The shelves are full.').waitFor({ timeout: 10_000 });
  });

  it("a script's tool that only goes to another page: its card names the page the tab opened, not \"No answer\"", async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [toolCall('walk_to_room', {}), 'never'],
    });
    const page = await extension.context.newPage();
    await page.goto(server.url('/hallway.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    await ask(panel, 'go to the reading room');
    await panel.locator('[data-testid=tool-card][data-name=walk_to_room] [data-testid=approve-once]').click({ timeout: 10_000 });
    await page.waitForURL(/door-room\.html\?from=hallway$/);
    const card = panel.locator('[data-testid=tool-card][data-name=walk_to_room]');
    await expect.poll(() => card.locator('.tool-state').textContent(), { timeout: 10_000 }).toBe('New page loaded');
    expect(await panel.getByTestId('turn-notice').last().textContent()).toContain('A new page, "The Reading Room", loaded in the tab as "walk_to_room" ran, so the run ended here.');
    await card.locator('summary').click();
    expect(await card.textContent()).toContain(`The tab loaded "The Reading Room" (${server.url('/door-room.html')}) as the tool ran`);
  });

  it('a form whose result opens in a new tab, which the browser submits, its pop-up blocker on as for a person: the call says it may not have been sent', async () => {
    const blocking = await launchExtension({ webmcp: true, popupBlocking: true });
    try {
      await orderWithResultInNewTab(blocking, server, '/order-form-new-tab.html', { said: 'which the browser may have blocked as a pop-up, so whether the form was sent is not known', opens: false });
    } finally {
      await blocking.close();
    }
  });

  it("a form whose result opens in a new tab, which the browser submits where the site's pop-ups are allowed: the browser opened the tab, so the call says it was sent", async () => {
    await orderWithResultInNewTab(extension, server, '/order-form-new-tab.html', { said: 'The form was sent, and its result opened in another tab, window or frame', opens: true });
  });

  it('a frame taken away while its tool runs: the card says no answer came, blaming the frame, and the run goes on', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [toolCall('map_search', { near: 'Lyon' }), 'The map closed before it answered.'],
    });
    const page = await extension.context.newPage();
    await page.goto(server.url('/map-page.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    await ask(panel, 'find bakeries near Lyon');
    await panel.getByTestId('turn').getByText('The map closed before it answered.').waitFor({ timeout: 10_000 });
    const card = panel.locator('[data-testid=tool-card][data-name=map_search]');
    expect(await card.getAttribute('data-state')).toBe('unanswered');
    expect(await card.locator('.tool-state').textContent()).toBe('No answer');
    await card.locator('summary').click();
    expect(await card.textContent()).toContain('The frame that offered "map_search" navigated, reloaded or was removed while it ran');
  });

  it('a tool the page takes away while the person is asked about its call: the question goes, the call never runs, and the run goes on', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [toolCall('delete_draft', {}), 'The page no longer offers to delete the draft.'],
    });
    const page = await extension.context.newPage();
    await page.goto(server.url('/draft-tools.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await ask(panel, 'delete the draft');
    const card = panel.getByTestId('tool-card').first();
    await panel.getByRole('button', { name: 'Allow once' }).waitFor();
    await page.evaluate(() => (window as unknown as { withdrawDeleteDraft(): void }).withdrawDeleteDraft());
    // The run went on to the model's next step (what it read there is checked in the unit tests).
    await expect.poll(() => panel.getByTestId('prose').allInnerTexts(), { timeout: 5000 }).toEqual(['The page no longer offers to delete the draft.']);
    expect(await card.getAttribute('data-state')).toBe('not-run');
    expect(await card.getAttribute('aria-label')).toBe('delete_draft: Not run');
    // The page's doing, not a mistake: no red.
    const colours = await card.evaluate((element) => {
      const probe = element.appendChild(document.createElement('span'));
      probe.style.color = 'var(--danger)';
      const danger = getComputedStyle(probe).color;
      probe.remove();
      return { danger, border: getComputedStyle(element).borderTopColor, state: getComputedStyle(element.querySelector('.tool-state')!).color };
    });
    expect(colours.border).not.toBe(colours.danger);
    expect(colours.state).not.toBe(colours.danger);
    await card.locator('summary').click();
    expect(await card.getByTestId('tool-result').textContent()).toBe('The page removed the tool delete_draft while you were being asked about this call, so it did not run.');
    expect(await panel.getByRole('button', { name: 'Allow once' }).count()).toBe(0);
    expect(await page.locator('#deleted').textContent()).toBe('0');
    await page.close();
    await panel.close();
  });

  it('a service worker stopped mid-run: the run shows as interrupted, the conversation survives, the next request works', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`First part.${toolCall('slow_lookup', { topic: 'coffee' })}`, 'never'],
    });
    const { panel } = await openPageAndPanel();
    await ask(panel, 'look up coffee');
    await panel.locator('[data-testid=tool-card][data-state=running]').waitFor();
    // Stop the worker once the running card is in session storage (it goes there at once).
    await expect.poll(async () => (await storedChats(panel)).includes('"state":"running"')).toBe(true);
    const cdp = await extension.context.newCDPSession(panel);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');

    await expect.poll(() => lastTurnOutcome(panel), { timeout: 10_000 }).toBe('interrupted');
    expect(await panel.getByTestId('turn').first().textContent()).toContain('First part.');
    expect(await panel.locator('[data-testid=tool-card][data-state=running]').count()).toBe(0);

    await useReplayEngine(await currentServiceWorker(extension.context), { replies: ['Back again.'] });
    await ask(panel, 'and now?');
    await panel.getByTestId('turn').getByText('Back again.').waitFor({ timeout: 10_000 });
    expect(await panel.getByTestId('turn').count()).toBe(2);
  });

  it('a service worker stopped while a reply streams after a long answer: the panel shows the answer and what streamed so far', async () => {
    const { panel } = await openPageAndPanel();
    const earlier = `${'The first answer is long. '.repeat(2_000)}Its end.`;
    await useReplayEngine(await currentServiceWorker(extension.context), { replies: [earlier], chunkSize: 4_000 });
    await ask(panel, 'tell me everything');
    await panel.getByTestId('turn').getByText('Its end.').waitFor({ timeout: 10_000 });
    const words = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
    await useReplayEngine(await currentServiceWorker(extension.context), { replies: [words], chunkSize: 6, delayMs: 30 });
    await ask(panel, 'now slowly');
    // Stop the worker once part of the reply is in session storage (streamed prose goes there every 300 ms).
    await expect.poll(async () => (await storedChats(panel)).includes('word10 '), { timeout: 10_000 }).toBe(true);
    const cdp = await extension.context.newCDPSession(panel);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const storedSoFar = /word0(?: word\d+)+/.exec(await storedChats(panel))![0];

    await expect.poll(() => lastTurnOutcome(panel), { timeout: 10_000 }).toBe('interrupted');
    const turns = panel.getByTestId('turn');
    expect(await turns.count()).toBe(2);
    expect(await turns.first().textContent()).toContain('Its end.');
    expect(await turns.last().textContent()).toContain(storedSoFar);
    expect(await turns.last().textContent()).not.toContain('word199');
  });

  it('an idle panel lets the stopped worker sleep; a change in its page, or a request, wakes it and the panel shows it', async () => {
    const { page, panel } = await openPageAndPanel();
    await panel.getByText('It offers 2 tools').waitFor();
    const cdp = await extension.context.newCDPSession(panel);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const workersRunning = async () => {
      const { targetInfos } = await cdp.send('Target.getTargets');
      return targetInfos.filter((target) => target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${extension.extensionId}/`)).length;
    };
    // A busy machine may take longer than a poll's default second to stop the worker.
    await expect.poll(workersRunning, { timeout: 10_000 }).toBe(0);
    // The panel used to connect again at once, and start the worker, every time it stopped.
    await panel.waitForTimeout(3_000);
    expect(await workersRunning()).toBe(0);
    expect(await panel.getByTestId('reconnecting').count()).toBe(0);

    // The page registers a tool: its report starts the worker, which tells the panel.
    await page.evaluate(() => {
      const { modelContext } = document as unknown as { modelContext: { registerTool(tool: object): void } };
      modelContext.registerTool({ name: 'quick_lookup', description: 'Looks something up at once.', inputSchema: { type: 'object', properties: {} }, execute: () => 'done' });
    });
    await panel.getByText('It offers 3 tools').waitFor({ timeout: 5_000 });

    await useReplayEngine(await currentServiceWorker(extension.context), { replies: ['Awake.'] });
    await cdp.send('ServiceWorker.stopAllWorkers');
    // A busy machine may take longer than a poll's default second to stop the worker.
    await expect.poll(workersRunning, { timeout: 10_000 }).toBe(0);
    await ask(panel, 'are you there?');
    await panel.getByTestId('turn').getByText('Awake.').waitFor({ timeout: 10_000 });
  });

  it('a browser page says no extension can work there, and offers no reload; a page with no tools says so instead', async () => {
    // No content script runs in a browser page.
    const closed = await extension.context.newPage();
    await closed.goto('chrome://version');
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(closed)}`);
    await panel.locator('[data-testid=page-unreachable][data-closed=browser]').waitFor({ timeout: 5000 });
    expect(await panel.getByTestId('page-unreachable').textContent()).toContain('No extension can work on this page');
    expect(await panel.getByTestId('reload-page').count()).toBe(0);
    expect(await panel.getByTestId('empty-no-tools').count()).toBe(0);

    // Nor in the extension's own pages: the trace viewer a turn's "Trace" link opens in a tab.
    const own = await extension.openExtensionPage('traces.html');
    const ownPanel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(own)}`);
    await ownPanel.locator('[data-testid=page-unreachable][data-closed=browser]').waitFor({ timeout: 5000 });
    expect(await ownPanel.getByTestId('reload-page').count()).toBe(0);

    const empty = await extension.context.newPage();
    await empty.goto(server.url('/no-such-page.html'));
    const emptyPanel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(empty)}`);
    await emptyPanel.getByTestId('empty-no-tools').waitFor({ timeout: 5000 });
    expect(await emptyPanel.getByTestId('page-unreachable').count()).toBe(0);
  });

  it('a page that did not load says so, not that it was open before the extension came', async () => {
    const failed = await extension.context.newPage();
    // Nothing listens on port 1: Chrome shows its error page.
    await failed.goto('http://127.0.0.1:1/').catch(() => {});
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(failed)}`);
    await panel.locator('[data-testid=page-unreachable][data-closed=load-failed]').waitFor({ timeout: 5000 });
    expect(await panel.getByTestId('page-unreachable').textContent()).toContain('This page did not load');
    expect(await panel.getByTestId('reload-page').count()).toBe(1);
  });

  it('a page still loading says so, not that it offers no tools, until its tools come', async () => {
    // The page's head comes at once, its body (with its tools) eight seconds later.
    const slow = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.write('<!doctype html><html><head><title>Slow page</title></head>');
      const tools = `document.modelContext.registerTool({ name: 'late_tool', description: 'Comes with the body.', inputSchema: { type: 'object', properties: {} }, execute: async () => 'ok' });`;
      setTimeout(() => response.end(`<body><p>Here at last.</p><script>${tools}</script></body></html>`), 8_000);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const page = await extension.context.newPage();
      await page.goto(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, { waitUntil: 'commit' });
      const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
      await panel.locator('[data-testid=empty-no-tools][data-loading=true]').waitFor({ timeout: 6_000 });
      expect(await panel.getByTestId('empty-no-tools').textContent()).toContain('This page is still loading');
      await expect.poll(() => panel.locator('.site-detail').textContent(), { timeout: 15_000 }).toContain('1 tool');
      expect(await panel.getByTestId('empty-no-tools').count()).toBe(0);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('a page with tools that goes to one that does not load no longer offers the old page\'s tools', async () => {
    const { page, panel } = await openPageAndPanel();
    await expect.poll(() => panel.locator('.site-detail').textContent()).toContain('2 tools');
    // Nothing listens on port 1: Chrome shows its error page, of which it tells no onCommitted.
    await page.goto('http://127.0.0.1:1/').catch(() => {});
    await panel.locator('[data-testid=page-unreachable][data-closed=load-failed]').waitFor({ timeout: 5000 });
    expect(await panel.locator('.site-detail').textContent()).toContain('0 tools');
    const fresh = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await fresh.locator('[data-testid=page-unreachable][data-closed=load-failed]').waitFor({ timeout: 5000 });
    expect(await fresh.getByTestId('suggestion').count()).toBe(0);
  });
});
