import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startDemoServer } from '../../demo/serve-demo';
import { chromiumAvailable, currentServiceWorker, launchExtension, screenshotPath, stopServiceWorker, tabIdOf, type LaunchedExtension } from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';
import { stepsOfRun } from './support/stored-traces';
import { sessionStorageBytes } from '../../lib/text/session-storage-bytes';
import { jsonBytes } from '../../lib/text/utf8-length';

const mug = 'trail-mug-forest';

/** A property of an element's style as the browser computed it (forced colours included). */
const computed = (locator: Locator, property: string) => locator.evaluate((node, name) => getComputedStyle(node).getPropertyValue(name), property);

describe.skipIf(!chromiumAvailable)('the side-panel agent on the demo shop', () => {
  let extension: LaunchedExtension;
  let shop: Awaited<ReturnType<typeof startDemoServer>>;

  beforeAll(async () => {
    [extension, shop] = await Promise.all([launchExtension({ webmcp: true }), startDemoServer()]);
  });
  afterAll(async () => {
    await extension?.close();
    await shop?.close();
  });

  // The first test stops the service worker: the tests reach the one running now.
  const worker = () => currentServiceWorker(extension.context);

  async function openShopAndPanel(): Promise<{ page: Page; panel: Page; tabId: number }> {
    const page = await extension.context.newPage();
    await page.goto(shop.url('/'));
    await page.waitForFunction(() => document.title.length > 0);
    const tabId = await tabIdOf(page);
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await panel.getByTestId('chat-input').waitFor();
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    return { page, panel, tabId };
  }

  it('adds two mugs to the cart: the page shows them, the panel streams prose with three tool cards; Undo brings them back after New chat', async () => {
    await useReplayEngine(await worker(), {
      replies: [
        `I'll look for mugs.${toolCall('search_products', { query: 'mug' })}`,
        `<think>The forest one is first.</think>Opening it.${toolCall('open_product', { slug: mug })}`,
        `Adding two.${toolCall('add_to_cart', { qty: 2 })}`,
        'Done! Two **Trail Mugs, Forest Green** are in your cart.',
      ],
    });
    const { page, panel, tabId } = await openShopAndPanel();
    await ask(panel, 'add two mugs to the cart');

    const addCard = panel.locator('[data-testid=tool-card][data-name=add_to_cart]');
    await addCard.locator('[data-testid=approve-once]').click({ timeout: 15_000 });
    const notice = panel.getByTestId('turn').last().getByText('Two Trail Mugs, Forest Green');
    await notice.waitFor({ timeout: 15_000 });

    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('2');
    const cards = panel.getByTestId('tool-card');
    await expect.poll(() => cards.evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-name'), node.getAttribute('data-state')]))).toEqual([
      ['search_products', 'done'],
      ['open_product', 'done'],
      ['add_to_cart', 'done'],
    ]);
    const text = await panel.getByTestId('turn').last().innerText();
    expect(text).toContain("I'll look for mugs.");
    expect(text).not.toMatch(/tool_call|<think>|The forest one is first/);
    expect(await panel.locator('strong', { hasText: 'Trail Mugs, Forest Green' }).count()).toBe(1);
    // The page's JSON result reads laid out, a field a line, not as one minified block.
    const result = await panel.locator('[data-testid=tool-card][data-name=search_products] [data-testid=tool-result]').textContent();
    expect(result).toMatch(/^\{\n {2}"/);
    expect(JSON.parse(result!)).toBeTypeOf('object');
    await panel.setViewportSize({ width: 420, height: 900 });
    await panel.screenshot({ path: screenshotPath('agent-run.png') });

    // A misclick on New chat: Undo brings the conversation back, even after the panel was closed
    // and the service worker stopped, and the model reads it again. Only the panel that pressed
    // New chat says so; the one opened later offers the earlier chat quietly.
    const shown = await panel.getByTestId('turn').innerText();
    await panel.getByTestId('new-chat').click();
    await panel.getByTestId('turn').waitFor({ state: 'detached' });
    expect(await panel.locator('[role=status]', { has: panel.getByTestId('new-chat-note') }).innerText()).toMatch(/^Started a new chat\.\s*Undo$/);
    await panel.close();
    await stopServiceWorker(extension.context);
    const reopened = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    const offer = reopened.getByTestId('earlier-chat-note');
    await offer.waitFor({ timeout: 15_000 });
    expect(await offer.innerText()).toMatch(/^The earlier chat can be brought back\.\s*Bring it back$/);
    expect(await offer.evaluate((node) => node.closest('[role=status], [role=alert], [aria-live]') === null)).toBe(true);
    expect(await reopened.getByTestId('new-chat-status').textContent()).toBe('');
    await reopened.getByTestId('undo-new-chat').click();
    await expect.poll(() => reopened.getByTestId('turn').innerText().catch(() => ''), { timeout: 5_000 }).toBe(shown);
    expect(await reopened.getByTestId('tool-card').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state')))).toEqual(['done', 'done', 'done']);
    expect(await reopened.getByTestId('earlier-chat-note').count()).toBe(0);
    expect(await reopened.getByTestId('new-chat-status').textContent()).toBe('The earlier chat is back.');
    await useReplayEngine(await worker(), { replies: ['Two, as I said.'] });
    await ask(reopened, 'how many mugs did you add?');
    await reopened.getByTestId('turn').last().getByText('Two, as I said.').waitFor({ timeout: 15_000 });
    const { steps } = await stepsOfRun(reopened, 'how many mugs did you add?');
    expect(steps[0]?.messages.map((message) => message.content).slice(1)).toEqual([
      'add two mugs to the cart',
      'Done! Two **Trail Mugs, Forest Green** are in your cart.',
      'how many mugs did you add?',
    ]);
    await reopened.close();

    // What the chats (and the tab's tools) left in session storage weighs, to Chrome, what the
    // 8 MB budget counts it as: not its JSON, which here is about three quarters of that.
    const stored = await (await worker()).evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: { storage: { session: { get(keys: null): Promise<Record<string, unknown>>; getBytesInUse(keys: null): Promise<number> } } } };
      return { values: await chrome.storage.session.get(null), bytesInUse: await chrome.storage.session.getBytesInUse(null) };
    });
    const keyCount = Object.keys(stored.values).length;
    expect(Object.keys(stored.values).filter((key) => key.startsWith('agentItem:')).length).toBeGreaterThan(5);
    // Each key's value is counted as an entry of one object, less the entry itself.
    const counted = sessionStorageBytes(stored.values) - 64 * keyCount;
    expect(counted).toBeGreaterThanOrEqual(stored.bytesInUse);
    expect(counted).toBeLessThan(stored.bytesInUse * 1.05);
    console.info(`session storage: ${stored.bytesInUse} bytes to Chrome, ${counted} counted, ${jsonBytes(stored.values)} of JSON`);
    expect(jsonBytes(stored.values)).toBeLessThan(stored.bytesInUse * 0.9);
  });

  it('corrects an unknown tool and invalid arguments from the messages it is given', async () => {
    await useReplayEngine(await worker(), {
      replies: [
        toolCall('find_products', { query: 'cap' }),
        toolCall('search_products', { query: 'cap' }),
        toolCall('open_product', { slug: 'ridge-cap-olive' }),
        toolCall('add_to_cart', { qty: 0 }),
        toolCall('add_to_cart', { qty: 1 }),
        'One olive Ridge Cap is in your cart.',
      ],
      settings: { allowedSites: [shop.origin] },
    });
    const { panel, page } = await openShopAndPanel();
    await ask(panel, 'put an olive cap in my cart');
    await panel.getByTestId('turn').getByText('One olive Ridge Cap is in your cart.').waitFor({ timeout: 15_000 });
    // The card of the tool the shop does not offer shows what the model asked of it.
    expect(await panel.locator('[data-testid=tool-card][data-state=unknown] [data-testid=tool-arguments]').textContent()).toBe('{"query":"cap"}');
    const invalid = panel.locator('[data-testid=tool-card][data-state=invalid]');
    await expect.poll(() => invalid.count()).toBe(1);
    expect(await invalid.textContent()).toContain('"qty" must be at least 1.');
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    // Each correction came from what the model was told at the step after its mistake.
    const { steps } = await stepsOfRun(panel, 'put an olive cap in my cart');
    const told = (step: number) => steps.find((each) => each.step === step)?.messages.at(-1)?.content ?? '';
    expect(told(2)).toContain('Unknown tool "find_products"');
    expect(told(5)).toContain('"qty" must be at least 1.');
    // In the system's high-contrast colours, where the red goes, a card that went wrong keeps a
    // double edge; one that ran has a single one.
    await panel.emulateMedia({ forcedColors: 'active' });
    expect(await computed(invalid, 'border-top-style')).toBe('double');
    expect(await computed(panel.locator('[data-testid=tool-card][data-state=done]').first(), 'border-top-style')).toBe('solid');
  });

  it('runs a call the model wrote twice in one reply once: the person is asked once, one mug goes in the cart, and the second card says it was not run', async () => {
    const addOne = toolCall('add_to_cart', { qty: 1 });
    await useReplayEngine(await worker(), {
      replies: [toolCall('open_product', { slug: mug }), `Adding one.${addOne}\n${addOne}`, 'One Trail Mug is in your cart.'],
    });
    const { panel, page } = await openShopAndPanel();
    await ask(panel, 'add a mug to the cart');
    await panel.locator('[data-testid=tool-card][data-name=add_to_cart] [data-testid=approve-once]').click({ timeout: 15_000 });
    await panel.getByTestId('turn').last().getByText('One Trail Mug is in your cart.').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    const cards = panel.getByTestId('tool-card');
    expect(await cards.evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-name'), node.getAttribute('data-state')]))).toEqual([
      ['open_product', 'done'],
      ['add_to_cart', 'done'],
      ['add_to_cart', 'not-run'],
    ]);
    const second = cards.nth(2);
    expect(await second.getAttribute('aria-label')).toBe('Add to cart: Not run');
    expect(await second.getByTestId('tool-result').textContent()).toBe('The same call as the one above, in the same reply.');
    // The model heard why the second did not run, beside the first's result.
    const { steps } = await stepsOfRun(panel, 'add a mug to the cart');
    expect(steps.find((step) => step.step === 3)?.messages.at(-1)?.content).toContain('You wrote this same call to add_to_cart twice in one reply, so it was not run again');
  });

  it('shows a call the model could not write as an unreadable card between its steps\' prose, stops one written the same way three times, and takes back markup the parse read', async () => {
    const unreadable = '<tool_call>search_products mug</tool_call>';
    await useReplayEngine(await worker(), { replies: [`Let me look that up.${unreadable}`, 'Here are the mugs.'] });
    const { panel } = await openShopAndPanel();
    await ask(panel, 'find mugs');
    const first = panel.getByTestId('turn').last();
    await first.getByText('Here are the mugs.').waitFor({ timeout: 15_000 });
    expect(await first.getByTestId('prose').allInnerTexts()).toEqual(['Let me look that up.', 'Here are the mugs.']);
    const card = first.getByTestId('tool-card');
    expect(await card.getAttribute('data-state')).toBe('unreadable');
    expect(await card.getAttribute('aria-label')).toBe('Unreadable call');
    await card.getByText('Details').click();
    expect(await card.getByTestId('tool-result').textContent()).toBe('Couldn\'t read a tool call: it is neither JSON nor name(argument=value) in "search_products mug".');

    await useReplayEngine(await worker(), { replies: [unreadable, unreadable, unreadable, 'never'] });
    await ask(panel, 'find mugs, please');
    const notice = panel.getByTestId('turn').last().getByTestId('turn-notice');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.getAttribute('data-outcome')).toBe('repeated-call');
    expect(await notice.innerText()).toBe('The model wrote the same unreadable tool call 3 times, so the run was stopped. Try rephrasing the request.');
    // Three cards, as the notice counts.
    expect(await panel.getByTestId('turn').last().getByTestId('tool-card').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state')))).toEqual([
      'unreadable',
      'unreadable',
      'unreadable',
    ]);

    // A call in a shape the prose filter does not hide, then an answer after reasoning whose
    // `<think>` the chat template had opened: the panel is left with the answer alone.
    await useReplayEngine(await worker(), {
      replies: ['<function>{"name": "search_products", "parameters": {"query": "mug"}}</function>', 'The user wants mugs.</think>There are four mugs.'],
    });
    await ask(panel, 'any mugs?');
    const last = panel.getByTestId('turn').last();
    await expect.poll(() => last.getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false');
    await expect.poll(() => last.getByTestId('prose').allInnerTexts()).toEqual(['There are four mugs.']);
    expect(await last.getByTestId('tool-card').getAttribute('data-state')).toBe('done');
    expect(await last.innerText()).not.toMatch(/<function>|The user wants mugs/);
  });

  it('takes a call written as code out of the prose, names its tool on a card, and runs the call the model then writes', async () => {
    await useReplayEngine(await worker(), {
      replies: ['Let me look.\n```tool_code\nsearch_products(query="mug")\n```', toolCall('search_products', { query: 'mug' }), 'There are four mugs.'],
    });
    const { panel } = await openShopAndPanel();
    await ask(panel, 'show me the mugs');
    const turn = panel.getByTestId('turn').last();
    await turn.getByText('There are four mugs.').waitFor({ timeout: 15_000 });
    expect(await turn.getByTestId('prose').allInnerTexts()).toEqual(['Let me look.', 'There are four mugs.']);
    const cards = turn.getByTestId('tool-card');
    expect(await cards.evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-name'), node.getAttribute('data-state')]))).toEqual([
      ['search_products', 'unreadable'],
      ['search_products', 'done'],
    ]);
    const { steps } = await stepsOfRun(panel, 'show me the mugs');
    expect(steps.find((step) => step.step === 2)?.messages.at(-1)?.content).toContain('was written as code, so nothing ran. To call it, write {"name":"search_products","arguments":{"query":"mug"}}');
  });

  it('a chip starts a request to finish, and a request whose model could not load is sent again with Try again', async () => {
    // Nothing listens on port 8: the local server's model cannot load.
    await useReplayEngine(await worker(), { replies: [], settings: { engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:8/v1' } });
    const { panel } = await openShopAndPanel();
    const input = panel.getByTestId('chat-input');
    await panel.getByTestId('suggestion').filter({ hasText: 'Search products' }).click();
    expect(await input.inputValue()).toBe('Search products ');
    expect(await input.evaluate((box: HTMLTextAreaElement) => [document.activeElement === box, box.selectionStart])).toEqual([true, 16]);
    expect(await panel.getByTestId('turn').count()).toBe(0);
    await panel.keyboard.type('for mugs');
    await panel.keyboard.press('Enter');

    const tryAgain = panel.getByTestId('turn').last().getByRole('button', { name: 'Try again' });
    await tryAgain.waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('turn').last().getByTestId('turn-notice').textContent()).toContain('Nothing was done. No server answers at http://127.0.0.1:8/v1.');
    expect(await panel.getByTestId('status-line').textContent()).toContain('Could not connect');
    // The person fixes the engine; the request needs no retyping.
    await useReplayEngine(await worker(), { replies: ['Four mugs match.'] });
    await expect.poll(() => panel.getByTestId('status-line').textContent(), { timeout: 10_000 }).not.toContain('Could not connect');
    expect(await panel.getByTestId('engine-error').count()).toBe(0);
    await tryAgain.focus();
    await panel.keyboard.press('Enter');
    await panel.getByTestId('turn').last().getByText('Four mugs match.').waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('request').allTextContents()).toEqual(['Search products for mugs', 'Search products for mugs']);
  });

  it('keeps the chat of a tab Chrome discarded to save memory: brought back, under its new id, the panel shows it', async () => {
    await useReplayEngine(await worker(), { replies: ['Four mugs match.'] });
    const { panel, tabId } = await openShopAndPanel();
    await ask(panel, 'any mugs?');
    await panel.getByTestId('turn').getByText('Four mugs match.').waitFor({ timeout: 15_000 });
    // A panel page open through the discard follows its tab to the new id, rather than calling it closed.
    const kept = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await kept.getByTestId('turn').waitFor();
    await kept.getByTestId('chat-input').fill('and a teapot');
    await panel.close();
    // Chrome gives a discarded tab a new id (Memory Saver does the same to a tab left alone).
    const discardedId = await (await worker()).evaluate(async (id) => {
      const { chrome } = globalThis as unknown as { chrome: { tabs: { discard(tabId: number): Promise<{ id?: number } | undefined> } } };
      return (await chrome.tabs.discard(id))?.id;
    }, tabId);
    expect(discardedId).toBeDefined();
    expect(discardedId).not.toBe(tabId);
    const again = await extension.openExtensionPage(`sidepanel.html?tabId=${discardedId}`);
    await again.getByTestId('turn').getByText('Four mugs match.').waitFor({ timeout: 5_000 });
    expect(await again.getByTestId('request').allTextContents()).toEqual(['any mugs?']);
    // Opened anew, it names the asleep tab by its chat's site: the browser tells no address of it.
    await again.getByTestId('page-unreachable').getByText('This tab is asleep').waitFor({ timeout: 5_000 });
    expect(await again.locator('.site-origin').innerText()).toContain(new URL(shop.url('/')).host);
    await again.close();
    await expect.poll(() => kept.url()).toContain(`tabId=${discardedId}`);
    expect(await kept.getByTestId('request').allTextContents()).toEqual(['any mugs?']);
    expect(await kept.getByTestId('tab-closed-note').count()).toBe(0);
    expect(await kept.getByTestId('chat-input').inputValue()).toBe('and a teapot');
    // It says the tab is asleep (not that the page needs a reload as if open before the extension), still naming its page.
    const asleep = kept.getByTestId('page-unreachable');
    await asleep.getByText('This tab is asleep').waitFor({ timeout: 5_000 });
    expect(await kept.locator('.site-detail').first().innerText()).toBe('Tab asleep');
    expect(await kept.locator('.site-origin').innerText()).toContain(new URL(shop.url('/')).host);
    // Woken from the panel, the page loads again, under the same id, and offers its tools.
    await asleep.getByRole('button', { name: 'Wake the page' }).click();
    await expect.poll(() => kept.locator('.site-detail').first().innerText(), { timeout: 10_000 }).toMatch(/^\d+ tools/);
    expect(await asleep.count()).toBe(0);
    expect(kept.url()).toContain(`tabId=${discardedId}`);
    expect(await kept.getByTestId('request').allTextContents()).toEqual(['any mugs?']);
    expect(await kept.getByTestId('chat-input').inputValue()).toBe('and a teapot');
    // The tab stays open: its kept draft goes, for the tests after.
    await kept.getByTestId('chat-input').fill('');
    await kept.close();
  });

  it('keeps what was typed and not sent when the panel is closed, through a discard of its tab, and forgets it with the tab', async () => {
    const { page, panel, tabId } = await openShopAndPanel();
    await panel.getByTestId('chat-input').fill('add two mugs and a teapot');
    const keptDrafts = async () =>
      (await worker()).evaluate(async () => {
        const { chrome } = globalThis as unknown as { chrome: { storage: { session: { get(keys: null): Promise<Record<string, unknown>> } } } };
        return Object.entries(await chrome.storage.session.get(null)).filter(([key]) => key.startsWith('panelDraft:'));
      });
    await expect.poll(keptDrafts).toEqual([[`panelDraft:${tabId}`, 'add two mugs and a teapot']]);
    await panel.close();

    const reopened = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await expect.poll(() => reopened.getByTestId('chat-input').inputValue()).toBe('add two mugs and a teapot');
    await reopened.close();

    const discardedId = await (await worker()).evaluate(async (id) => {
      const { chrome } = globalThis as unknown as { chrome: { tabs: { discard(tabId: number): Promise<{ id?: number } | undefined> } } };
      return (await chrome.tabs.discard(id))?.id;
    }, tabId);
    const afterDiscard = await extension.openExtensionPage(`sidepanel.html?tabId=${discardedId}`);
    await expect.poll(() => afterDiscard.getByTestId('chat-input').inputValue()).toBe('add two mugs and a teapot');
    await afterDiscard.close();

    // The discarded tab is another page to Playwright: the worker closes it.
    await (await worker()).evaluate(async (id) => {
      const { chrome } = globalThis as unknown as { chrome: { tabs: { remove(tabId: number): Promise<void> } } };
      await chrome.tabs.remove(id);
    }, discardedId!);
    await expect.poll(keptDrafts).toEqual([]);
    await page.close().catch(() => {});

    // A draft of a tab that closed while the worker slept (a panel put a request back there) goes at its next start.
    await (await worker()).evaluate(async (key) => {
      const { chrome } = globalThis as unknown as { chrome: { storage: { session: { set(items: Record<string, unknown>): Promise<void> } } } };
      await chrome.storage.session.set({ [key]: 'add a kettle' });
    }, `panelDraft:${discardedId! + 1_000}`);
    await stopServiceWorker(extension.context);
    // A panel wakes the new worker.
    const another = await openShopAndPanel();
    await expect.poll(keptDrafts).toEqual([]);
    await another.panel.close();
    await another.page.close();
  });

  it('says in the panel of a tab whose chat an update of the extension ended where it went', async () => {
    await useReplayEngine(await worker(), { replies: ['Four mugs match.'] });
    const { panel, tabId } = await openShopAndPanel();
    await ask(panel, 'any mugs?');
    await panel.getByTestId('turn').getByText('Four mugs match.').waitFor({ timeout: 15_000 });
    await panel.close();
    type UpdateGlobal = {
      chrome: {
        storage: { local: { get(key: string): Promise<Record<string, unknown>> }; session: { clear(): Promise<void> } };
        runtime: { onInstalled: { dispatch(details: object): void } };
      };
    };
    // Which tabs had a chat is on disk, by number only.
    await expect
      .poll(async () => (await worker()).evaluate(async () => (globalThis as unknown as UpdateGlobal).chrome.storage.local.get('tabsWithChats')))
      .toEqual({ tabsWithChats: expect.arrayContaining([tabId]) });
    // An update, as the new version's worker meets it: session storage cleared, a new worker, onInstalled.
    await (await worker()).evaluate(() => (globalThis as unknown as UpdateGlobal).chrome.storage.session.clear());
    await stopServiceWorker(extension.context);
    // The panel wakes the new worker, which is then told it was updated: its snapshot follows.
    const reopened = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await reopened.getByTestId('chat-input').waitFor();
    await (await worker()).evaluate(() =>
      (globalThis as unknown as UpdateGlobal).chrome.runtime.onInstalled.dispatch({ reason: 'update', previousVersion: '0.0.1' }),
    );
    const note = reopened.getByTestId('chat-ended-note');
    await note.waitFor({ timeout: 5_000 });
    expect(await note.innerText()).toBe("This tab's chat ended when the extension was updated, which clears every chat. Its runs are in Traces.");
    expect(await reopened.getByTestId('turn').count()).toBe(0);
    await useReplayEngine(await worker(), { replies: ['Still four.'] });
    await ask(reopened, 'and now?');
    await reopened.getByTestId('turn').getByText('Still four.').waitFor({ timeout: 15_000 });
    expect(await note.count()).toBe(0);
    await reopened.close();
  });

  it('opens the side panel from its toolbar button, whose keyboard shortcut is Alt+Shift+M', async () => {
    const opening = await (await worker()).evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: { commands: { getAll(): Promise<Array<{ name?: string; shortcut?: string }>> }; sidePanel: { getPanelBehavior(): Promise<object> } };
      };
      return { commands: await chrome.commands.getAll(), behavior: await chrome.sidePanel.getPanelBehavior() };
    });
    expect(opening.behavior).toEqual({ openPanelOnActionClick: true });
    expect(opening.commands).toEqual([expect.objectContaining({ name: '_execute_action', shortcut: 'Alt+Shift+M' })]);
  });

  it('waits for the person before checkout: Deny never runs it, Allow once runs it once', async () => {
    await useReplayEngine(await worker(), {
      replies: [toolCall('checkout', { email: 'ada@example.com' }), 'Alright, I did not place the order.'],
      settings: { allowedSites: [shop.origin] },
    });
    const { panel, page, tabId } = await openShopAndPanel();
    await page.goto(shop.url(`/#/product/${mug}`));
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    await ask(panel, 'check out');
    const card = panel.locator('[data-testid=tool-card][data-name=checkout]');
    await card.locator('[data-testid=deny]').waitFor({ timeout: 15_000 });
    // The person may be in another tab by now: the toolbar says this one waits for them.
    const toolbar = async () =>
      (await worker()).evaluate(async (id) => {
        const { action } = (globalThis as unknown as { chrome: { action: { getBadgeText(details: object): Promise<string>; getTitle(details: object): Promise<string> } } }).chrome;
        return `${await action.getBadgeText({ tabId: id })} · ${await action.getTitle({ tabId: id })}`;
      }, tabId);
    await expect.poll(toolbar).toBe('? · The WebMCP agent waits for your answer in this tab');
    // With the system's high-contrast colours, which give every button one face and drop the
    // accent, Allow once still stands out from Deny, and the card that waits from the others.
    await panel.emulateMedia({ forcedColors: 'active' });
    const highlight = await panel.evaluate(() => {
      const probe = document.body.appendChild(document.createElement('div'));
      probe.style.cssText = 'forced-color-adjust: none; background: Highlight';
      const color = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return color;
    });
    expect(await computed(card.getByTestId('approve-once'), 'background-color')).toBe(highlight);
    expect(await computed(card.getByTestId('deny'), 'background-color')).not.toBe(highlight);
    expect(await computed(card, 'border-top-width')).toBe('2px');
    await panel.emulateMedia({ forcedColors: 'none' });
    await card.locator('[data-testid=deny]').click();
    await expect.poll(toolbar).toMatch(/^(\d+) · Open the WebMCP agent: \1 WebMCP tools on this page$/);
    await panel.getByTestId('turn').getByText('Alright, I did not place the order.').waitFor();
    expect(await card.getAttribute('data-state')).toBe('declined');
    expect(await card.locator('[data-testid=approve-site]').count()).toBe(0);
    expect(page.url()).not.toContain('order');

    await useReplayEngine(await worker(), {
      replies: [toolCall('checkout', { email: 'ada@example.com' }), 'Your order is placed.'],
      settings: { allowedSites: [shop.origin] },
    });
    await ask(panel, 'check out, really');
    const second = panel.getByTestId('turn').last().locator('[data-testid=tool-card][data-name=checkout]');
    await second.locator('[data-testid=approve-once]').click({ timeout: 15_000 });
    await panel.getByTestId('turn').getByText('Your order is placed.').waitFor();
    expect(await second.getAttribute('data-state')).toBe('done');
    expect(await second.textContent()).toMatch(/TM-\d+/);
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('0');
  });

  it('Stop ends a streaming reply at once, and the next request works', async () => {
    await useReplayEngine(await worker(), {
      replies: ['This answer streams very slowly. '.repeat(40)],
      chunkSize: 1,
      delayMs: 30,
    });
    const { panel } = await openShopAndPanel();
    await ask(panel, 'tell me a long story');
    await panel.getByTestId('prose').first().waitFor();
    const pressed = Date.now();
    await panel.getByTestId('stop').click();
    await panel.locator('[data-testid=turn-notice][data-outcome=stopped]').waitFor({ timeout: 1000 });
    expect(Date.now() - pressed).toBeLessThan(1000);

    await useReplayEngine(await worker(), { replies: ['Here I am again.'] });
    await ask(panel, 'hello?');
    await panel.getByTestId('turn').getByText('Here I am again.').waitFor();
  });

  it('a panel opened for one tab whose tab closes mid-reply says so, keeps the chat as it ended, and offers nothing to send', async () => {
    await useReplayEngine(await worker(), { replies: ['This answer streams very slowly. '.repeat(40)], chunkSize: 1, delayMs: 30 });
    const { page, panel, tabId } = await openShopAndPanel();
    await ask(panel, 'tell me a long story');
    await panel.getByTestId('prose').getByText('This answer streams very slowly.').first().waitFor();
    await page.close();
    await panel.getByTestId('tab-closed-note').waitFor({ timeout: 5_000 });
    await panel.locator('[data-testid=turn-notice][data-outcome=stopped]').waitFor({ timeout: 5_000 });
    expect(await panel.getByTestId('turn-notice').innerText()).toContain('the tab was closed');
    const status = await panel.getByTestId('status-line').innerText();
    expect(status).toContain('Tab closed');
    expect(status).not.toMatch(/Generating|tokens\/s/);
    expect(await panel.getByTestId('chat-input').getAttribute('placeholder')).toBe('This tab is closed');
    expect(await panel.getByTestId('stop').count()).toBe(0);
    expect(await panel.getByTestId('prose').first().innerText()).toContain('This answer streams very slowly.');
    // Opened again for the closed tab, the page says the same at once, rather than offering a reload.
    const reopened = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await reopened.getByTestId('tab-closed-note').waitFor({ timeout: 5_000 });
    expect(await reopened.getByTestId('page-unreachable').count()).toBe(0);
    await Promise.all([panel.close(), reopened.close()]);
  });

  it('never shows chat-template tokens or a tool result the model made up, not even for a moment as the reply streams', async () => {
    const madeUp = '<tool_response>{"results": [{"name": "Gold Mug", "price": 1}]}</tool_response>';
    await useReplayEngine(await worker(), {
      replies: [
        `Looking for mugs.${toolCall('search_products', { query: 'mug' })}\n${madeUp}\nThe Gold Mug costs 1 USD.<|im_end|>`,
        'There are four mugs.<|im_end|>\n<|im_start|>user\nAdd them all.<|im_end|>',
      ],
      chunkSize: 2,
      delayMs: 5,
    });
    const { panel } = await openShopAndPanel();
    // Every text the panel shows, at every change, as the replies stream in.
    await panel.evaluate(() => {
      const shown: string[] = [];
      (window as unknown as { shown: string[] }).shown = shown;
      new MutationObserver(() => shown.push(document.body.innerText)).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await ask(panel, 'which mugs are there?');
    const turn = panel.getByTestId('turn').last();
    await turn.getByText('There are four mugs.').waitFor({ timeout: 15_000 });
    await expect.poll(() => turn.getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false');
    expect(await turn.getByTestId('prose').allInnerTexts()).toEqual(['Looking for mugs.', 'There are four mugs.']);
    expect(await turn.getByTestId('tool-card').getAttribute('data-state')).toBe('done');
    const shown = await panel.evaluate(() => (window as unknown as { shown: string[] }).shown);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((text) => /<\||im_end|tool_response|Gold Mug|Add them all/.test(text))).toEqual([]);
    // The model read the page's result next step, not the one it made up; the trace keeps what it
    // wrote until it was stopped, at the start of the result it made up.
    const { steps } = await stepsOfRun(panel, 'which mugs are there?');
    expect(steps[1]?.messages.map((message) => message.content).join('\n')).not.toContain('Gold Mug');
    expect(steps[0]?.raw).toContain(`${toolCall('search_products', { query: 'mug' })}\n<tool_response>`);
    expect(steps[0]?.raw).not.toContain('Gold Mug');
  });

  it('a reply cut into 1-character chunks renders exactly like the same reply in one chunk', async () => {
    const reply = 'Here is **bold**, a list:\n\n- one\n- two\n\nand `code` <b>not html</b>. <tool_call>{"name":"view_cart","arguments":{}}';
    const rendered: string[] = [];
    for (const chunkSize of [1, 10_000]) {
      await useReplayEngine(await worker(), { replies: [reply, 'ok'], chunkSize });
      const { panel } = await openShopAndPanel();
      await ask(panel, 'show me');
      await panel.getByTestId('turn').getByText('ok', { exact: true }).waitFor({ timeout: 15_000 });
      rendered.push(await panel.getByTestId('prose').first().innerHTML());
    }
    expect(rendered[0]).toBe(rendered[1]);
    expect(rendered[0]).not.toContain('<b>');
    expect(rendered[0]).not.toContain('tool_call');
  });

  it('keeps the status line whole and the conversation readable in a short panel zoomed to 200 %', async () => {
    await useReplayEngine(await worker(), { replies: ['A short answer.'] });
    const { panel } = await openShopAndPanel();
    await ask(panel, 'hello');
    await panel.getByTestId('trace-link').waitFor({ timeout: 15_000 });
    // A 320 × 640 panel at 200 % zoom lays out in 160 × 320 CSS pixels.
    await panel.setViewportSize({ width: 160, height: 320 });
    const layout = () =>
      panel.evaluate(() => {
        const status = document.querySelector<HTMLElement>('[data-testid=status-line]')!;
        const conversation = document.querySelector<HTMLElement>('main.conversation')!;
        return { statusCut: status.scrollHeight - status.clientHeight, conversation: conversation.clientHeight };
      });
    await expect.poll(layout).toMatchObject({ statusCut: 0 });
    // A server's long model id shows whole, wrapped, not cut at the panel's edge.
    const modelCut = await panel.locator('.status-model').evaluate((node) => {
      const shown = node.textContent;
      node.textContent = 'hf.co/unsloth/Qwen3-30B-A3B-Instruct-2507-GGUF:Q4_K_M';
      const cut = node.scrollWidth - node.clientWidth;
      node.textContent = shown;
      return cut;
    });
    expect(modelCut).toBeLessThanOrEqual(0);
    expect((await layout()).conversation).toBeGreaterThanOrEqual(80);
    // No wider than the panel: the panel scrolls up and down as a whole instead.
    expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(160);
    // Focused where only its top shows above the lower edge, the request box and Send show whole.
    await panel.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      const scroller = document.querySelector<HTMLElement>('.panel')!;
      scroller.scrollTop = 0;
      scroller.scrollTop = document.querySelector('.composer')!.getBoundingClientRect().top - innerHeight + 12;
    });
    const partly = await panel.locator('.composer').evaluate((node) => node.getBoundingClientRect().bottom > innerHeight && node.getBoundingClientRect().top < innerHeight);
    expect(partly).toBe(true);
    await panel.getByTestId('chat-input').focus();
    const composer = () => panel.locator('.composer').evaluate((node) => ({ top: node.getBoundingClientRect().top, bottom: node.getBoundingClientRect().bottom, height: innerHeight }));
    await expect.poll(async () => { const { top, bottom, height } = await composer(); return top >= 0 && bottom <= height; }).toBe(true);
    // With the system's high-contrast colours, which drop backgrounds, the request keeps its shape.
    await panel.emulateMedia({ forcedColors: 'active' });
    expect(await panel.getByTestId('request').evaluate((node) => getComputedStyle(node).borderTopStyle)).toBe('solid');
    await panel.close();
  });

  it('opens in a short panel zoomed to 200 % with its focused request box in view, Send with it, and keeps them so as the person types', async () => {
    await useReplayEngine(await worker(), { replies: ['Hello.'] });
    const page = await extension.context.newPage();
    await page.goto(shop.url('/'));
    const tabId = await tabIdOf(page);
    // A 320 × 640 panel at 200 % zoom lays out in 160 × 320 CSS pixels: the box starts below its lower edge.
    const panel = await extension.context.newPage();
    await panel.setViewportSize({ width: 160, height: 320 });
    await panel.goto(`chrome-extension://${extension.extensionId}/sidepanel.html?tabId=${tabId}`);
    await panel.getByTestId('chat-input').waitFor();
    await expect.poll(() => panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chat-input');
    // Once the panel's state has come and drawn its parts above the box (the suggestions among them).
    await panel.getByTestId('suggestion').first().waitFor({ timeout: 10_000 });
    const composerInView = () => panel.locator('.composer').evaluate((node) => node.getBoundingClientRect().top >= 0 && node.getBoundingClientRect().bottom <= innerHeight);
    await expect.poll(composerInView).toBe(true);
    await panel.keyboard.type('hello');
    expect(await composerInView()).toBe(true);
    await panel.close();
    await page.close();
  });

  it('offers a way back to the newest text to a person who scrolled up while the reply streams; it takes them there, to the request box', async () => {
    const paragraphs = Array.from({ length: 300 }, (_, index) => `Paragraph ${index + 1} of a long answer about mugs.`).join('\n\n');
    await useReplayEngine(await worker(), { replies: [paragraphs], chunkSize: 12, delayMs: 15 });
    const { panel } = await openShopAndPanel();
    await panel.setViewportSize({ width: 360, height: 500 });
    await ask(panel, 'tell me all about mugs');
    const conversation = panel.locator('main.conversation');
    await panel.getByText('Paragraph 30 of').waitFor({ timeout: 15_000 });
    await conversation.hover();
    await panel.mouse.wheel(0, -400);
    const button = panel.getByRole('button', { name: 'Newer below' });
    await button.waitFor({ timeout: 10_000 });
    await button.click();
    const toEnd = () => conversation.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    const focused = () => panel.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
    await expect.poll(toEnd).toBeLessThanOrEqual(2);
    expect(await focused()).toBe('chat-input');
    expect(await button.count()).toBe(0);
    // Up again; this time, with focus on the button, the person scrolls to the end: focus does not fall to the page.
    await conversation.hover();
    await panel.mouse.wheel(0, -400);
    await button.waitFor({ timeout: 10_000 });
    await button.focus();
    // Down to the end, again if the reply ran on past where a scroll landed, as a person would.
    await expect
      .poll(async () => {
        await panel.mouse.wheel(0, 100_000);
        return button.count();
      })
      .toBe(0);
    expect(await focused()).toBe('chat-input');
    // Stopped, not left streaming into the tests that follow.
    await panel.keyboard.press('Escape');
    await panel.getByTestId('turn').last().getByText('Stopped', { exact: false }).first().waitFor({ timeout: 5_000 });
  });

  it('keeps its frame in place under the wheel after a long answer: only the conversation scrolls', async () => {
    const lines = Array.from({ length: 60 }, (_, index) => `Line ${index + 1} of a long answer.`).join('\n\n');
    await useReplayEngine(await worker(), { replies: [lines] });
    const { panel } = await openShopAndPanel();
    await panel.setViewportSize({ width: 360, height: 585 });
    await ask(panel, 'tell me all about mugs');
    // The answer's footer, with Copy and the status its press speaks, is drawn.
    await panel.getByTestId('copy-answer').waitFor({ timeout: 15_000 });
    // Over the conversation, at its end, and over the header, the wheel moves nothing of the page itself.
    await panel.locator('main.conversation').hover();
    await panel.mouse.wheel(0, 600);
    await panel.locator('.panel-header').hover();
    await panel.mouse.wheel(0, 600);
    const frame = await panel.evaluate(() => ({
      pageScroll: document.scrollingElement!.scrollTop,
      pageOverflow: document.scrollingElement!.scrollHeight - document.scrollingElement!.clientHeight,
      headerTop: document.querySelector('.panel-header')!.getBoundingClientRect().top,
      requestBottom: document.querySelector('[data-testid="chat-input"]')!.getBoundingClientRect().bottom,
    }));
    expect(frame).toMatchObject({ pageScroll: 0, pageOverflow: 0, headerTop: 0 });
    expect(frame.requestBottom).toBeLessThanOrEqual(585);
  });

  it("puts the focus on the request box where the turn that held it goes (New chat from the tab's other panel)", async () => {
    await useReplayEngine(await worker(), { replies: ['Four mugs.'] });
    const { panel, tabId } = await openShopAndPanel();
    await ask(panel, 'any mugs?');
    await panel.getByTestId('copy-answer').focus();
    const other = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await other.getByTestId('new-chat').click();
    await expect.poll(() => panel.getByTestId('turn').count(), { timeout: 5_000 }).toBe(0);
    await expect.poll(() => panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chat-input');
    await other.close();
  });

  it("tells the panel of another tab that a run waits for the person's answer, and takes them there", async () => {
    await useReplayEngine(await worker(), { replies: [toolCall('open_product', { slug: mug }), `Adding one.${toolCall('add_to_cart', { qty: 1 })}`, 'Added.'] });
    const shopTab = await openShopAndPanel();
    await ask(shopTab.panel, 'add a mug');
    await shopTab.panel.locator('[data-testid=tool-card][data-state=waiting]').waitFor({ timeout: 15_000 });
    const elsewhere = await openShopAndPanel();
    const note = elsewhere.panel.getByTestId('asking-elsewhere');
    await note.waitFor({ timeout: 5_000 });
    expect(await note.innerText()).toMatch(/^A request in “.+” waits for your answer\./);
    await elsewhere.panel.getByTestId('go-to-asking-tab').click();
    await expect.poll(() => shopTab.page.evaluate(() => document.visibilityState)).toBe('visible');
    await shopTab.panel.getByTestId('approve-once').click();
    await note.waitFor({ state: 'detached', timeout: 5_000 });
    await Promise.all([shopTab.panel.close(), elsewhere.panel.close(), elsewhere.page.close()]);
  });

  it("stops telling the panel of another tab that a run waits for the person's answer once a restart of the extension cut that run off", async () => {
    await useReplayEngine(await worker(), { replies: [toolCall('open_product', { slug: mug }), `Adding one.${toolCall('add_to_cart', { qty: 1 })}`, 'Added.'] });
    const shopTab = await openShopAndPanel();
    await ask(shopTab.panel, 'add a mug');
    await shopTab.panel.locator('[data-testid=tool-card][data-state=waiting]').waitFor({ timeout: 15_000 });
    // A panel that follows the browser's active tab, as the side panel does, on a page without tools
    // (the shop's "Not found"), which reports nothing to wake it: it rests once its port closes with the worker.
    const page = await extension.context.newPage();
    await page.goto(shop.url('/no-such-page'));
    const following = await extension.openExtensionPage('sidepanel.html');
    const pageTab = await tabIdOf(page);
    await (await worker()).evaluate(async (tabId) => {
      const { chrome } = globalThis as unknown as { chrome: { tabs: { update(tabId: number, change: { active: boolean }): Promise<unknown> } } };
      await chrome.tabs.update(tabId, { active: true });
    }, pageTab);
    const note = following.getByTestId('asking-elsewhere');
    await note.waitFor({ timeout: 5_000 });
    await stopServiceWorker(extension.context);
    await shopTab.panel.getByText('This run was cut off when the extension restarted.').first().waitFor({ timeout: 15_000 });
    await note.waitFor({ state: 'detached', timeout: 10_000 });
    await Promise.all([shopTab.panel.close(), shopTab.page.close(), following.close(), page.close()]);
  });

  it('draws the numbers of a long numbered list whole in a narrow panel, 10 and 100 too', async () => {
    const list = Array.from({ length: 120 }, (_, index) => `${index + 1}. item`).join('\n');
    await useReplayEngine(await worker(), { replies: [`Here they are:\n\n${list}`] });
    const { panel } = await openShopAndPanel();
    await panel.setViewportSize({ width: 320, height: 900 });
    await ask(panel, 'list them');
    const items = panel.getByTestId('prose').locator('ol > li');
    await items.nth(119).waitFor({ state: 'attached', timeout: 15_000 });
    for (const index of [9, 99]) {
      // A number is drawn outside its item, to its left; a box that contains paint clips it there.
      const fit = await items.nth(index).evaluate((item, number) => {
        const style = getComputedStyle(item);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const numberLeft = item.getBoundingClientRect().left - context.measureText(`${number}. `).width;
        let clipLeft = 0;
        for (let node = item.parentElement; node && node !== document.body; node = node.parentElement) {
          const css = getComputedStyle(node);
          if (css.contentVisibility === 'auto' || /paint|strict|content/.test(css.contain) || css.overflowX !== 'visible') clipLeft = Math.max(clipLeft, node.getBoundingClientRect().left);
        }
        return { numberLeft, clipLeft };
      }, index + 1);
      expect(fit.numberLeft, `number ${index + 1}`).toBeGreaterThanOrEqual(fit.clipLeft);
    }
  });

  it("names the site in a narrow panel whole, or broken after a dot, colon or slash of its address: never inside its port", async () => {
    const { panel } = await openShopAndPanel();
    const origin = panel.locator('.site-origin');
    expect(await origin.textContent()).toBe(new URL(shop.url('/')).origin);
    for (const width of [320, 240, 180]) {
      await panel.setViewportSize({ width, height: 600 });
      // The text of each line the name takes, from where each of its letters is drawn.
      const lines = await origin.evaluate((element) => {
        const rows = new Map<number, string>();
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let index = 0; index < node.textContent!.length; index++) {
            const range = document.createRange();
            range.setStart(node, index);
            range.setEnd(node, index + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            rows.set(top, (rows.get(top) ?? '') + node.textContent![index]);
          }
        }
        return [...rows].sort(([a], [b]) => a - b).map(([, text]) => text);
      });
      expect(lines.join(''), `at ${width} px`).toBe(new URL(shop.url('/')).origin);
      for (const line of lines.slice(0, -1)) expect(line, `a line of ${JSON.stringify(lines)} at ${width} px`).toMatch(/[.:/]$/);
      if (width === 180) expect(lines.length).toBeGreaterThan(1);
    }
  });

  it('wraps a request of one long address in the trace viewer at 320 px: its title stays on the page', async () => {
    await useReplayEngine(await worker(), { replies: ['That page is about mugs.'] });
    const { panel } = await openShopAndPanel();
    const request = `summarize https://example.com/${'segment'.repeat(36)}`;
    await ask(panel, request);
    const traceLink = panel.getByTestId('trace-link');
    await traceLink.waitFor({ timeout: 15_000 });
    const viewer = await extension.openExtensionPage((await traceLink.getAttribute('href'))!);
    await viewer.getByTestId('run-title').waitFor();
    await viewer.setViewportSize({ width: 320, height: 900 });
    expect(await viewer.getByTestId('run-title').textContent()).toBe(request);
    const layout = await viewer.evaluate(() => ({
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      titleRight: document.querySelector('[data-testid=run-title]')!.getBoundingClientRect().right,
    }));
    expect(layout.pageOverflow).toBe(0);
    expect(layout.titleRight).toBeLessThanOrEqual(320);
    await viewer.close();
    await panel.close();
  });

  it('copies a code block of the answer from its Copy button, and keeps a long line of code within a 320 px panel', async () => {
    const code = `import json\nprint(json.dumps({"mugs": ["trail", "enamel"], "note": "${'a long line '.repeat(12)}"}))`;
    await useReplayEngine(await worker(), { replies: [`Here is the script:\n\n\`\`\`python\n${code}\n\`\`\``] });
    const { panel } = await openShopAndPanel();
    await extension.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await panel.setViewportSize({ width: 320, height: 700 });
    await ask(panel, 'write me a script that lists the mugs');
    const copy = panel.getByRole('button', { name: 'Copy the python code' });
    await copy.waitFor({ timeout: 15_000 });
    await panel.getByTestId('trace-link').waitFor({ timeout: 15_000 });
    expect(await panel.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await copy.click();
    // Copied, its name is the word it shows.
    const copied = panel.getByRole('button', { name: 'Copied', exact: true });
    await expect.poll(() => copied.count()).toBe(1);
    expect(await panel.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await panel.screenshot({ path: screenshotPath('code-block-copy.png') });
  });

  it('lays out a table in the answer with its words whole at 320 px, in the panel and in the trace viewer: the table scrolls sideways, not the page', async () => {
    const reply = [
      'Here are the mugs:',
      '',
      '| Product | Price | Notes |',
      '|---|---:|---|',
      '| Trail mug | $12.00 | a long note that goes on and on to see that it wraps inside its own cell |',
      '| Kettle | $40.00 | enamel |',
    ].join('\n');
    await useReplayEngine(await worker(), { replies: [reply] });
    const { panel } = await openShopAndPanel();
    await ask(panel, 'compare the mugs');
    await panel.getByTestId('turn').locator('table').waitFor({ timeout: 15_000 });
    const traceLink = panel.getByTestId('trace-link');
    await traceLink.waitFor({ timeout: 15_000 });
    const viewer = await extension.openExtensionPage((await traceLink.getAttribute('href'))!);
    await viewer.getByTestId('run-answer').locator('table').waitFor();
    // 320 CSS px is a 1,280 px window at 400 % zoom, and a narrow side panel.
    for (const [name, page, answer] of [['panel', panel, '[data-testid=prose]'], ['viewer', viewer, '[data-testid=run-answer]']] as const) {
      await page.setViewportSize({ width: 320, height: 900 });
      const layout = await page.evaluate((answer) => {
        const lines = (cell: Element) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        };
        const cells = [...document.querySelectorAll(`${answer} th, ${answer} td`)];
        return {
          pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          // A cell of one word or a price takes one line: a word is never broken between letters.
          brokenWords: cells.filter((cell) => !/\s/.test(cell.textContent!.trim()) && lines(cell) > 1).map((cell) => cell.textContent),
          longNoteLines: lines(cells.find((cell) => cell.textContent!.startsWith('a long note'))!),
        };
      }, answer);
      expect(layout.pageOverflow, `the ${name}'s page`).toBe(0);
      expect(layout.brokenWords, `the ${name}'s table`).toEqual([]);
      expect(layout.longNoteLines, `the ${name}'s long note`).toBeGreaterThan(1);
    }
    await viewer.close();
  });
});
