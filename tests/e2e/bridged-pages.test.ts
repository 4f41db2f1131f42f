import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  currentServiceWorker,
  InspectorPage,
  launchExtension,
  serveFixtures,
  tabIdOf,
  type FixtureServer,
  type InspectedPage,
  type LaunchedExtension,
} from './support';
import { formSubmittedWithoutResult } from '@/lib/webmcp/form-waits-for-person';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';
import { orderWithResultInNewTab } from './support/new-tab-form';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');
/** The real polyfill from npm, served as a page would load it from a CDN. */
const polyfillFile = resolve(dirname(createRequire(import.meta.url).resolve('@mcp-b/webmcp-polyfill')), 'index.iife.js');


// Without --enable-features=WebMCP the page's JavaScript owns modelContext, and only the
// page-world bridge can see it: these pages exercise the bridge and the form reader.
describe.skipIf(!chromiumAvailable)('pages whose WebMCP is JavaScript (no browser WebMCP), in the inspector', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;

  beforeAll(async () => {
    [extension, server] = await Promise.all([
      launchExtension({ webmcp: false }),
      serveFixtures(fixturesDir, { '/vendor/webmcp-polyfill.js': polyfillFile }),
    ]);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  const openFixture = (path: string): Promise<InspectedPage> => InspectorPage.watchNewTab(extension, server.url(path));

  describe('a page with @mcp-b/webmcp-polyfill', () => {
    let fixture: InspectedPage;
    beforeAll(async () => {
      fixture = await openFixture('polyfill.html');
    });

    it('lists exactly its tools, the late one and the polyfill’s own form tool included', async () => {
      await fixture.inspector.waitForTools(
        ['cancel_alerts', 'get_forecast', 'get_humidity', 'get_temperature', 'radar_image', 'report_storm', 'subscribe_newsletter', 'weather_summary'],
        2_000,
      );
      await expect(fixture.inspector.tool('get_forecast').locator('.tool-meta').textContent()).resolves.toBe(
        `${server.origin} · frame 0 · polyfill`,
      );
      // The polyfill lists no consequentialHint; the page registered one, and it counts.
      await expect(fixture.inspector.tool('cancel_alerts').locator('.badge').allTextContents()).resolves.toEqual(['consequential']);
      // The polyfill reads the form itself, and lists it as a tool of its own: the extension takes
      // it for the form it is, and reads and runs it as it does forms where no polyfill is.
      expect(await fixture.inspector.dropped()).toEqual([]);
      await expect(fixture.inspector.tool('subscribe_newsletter').locator('.tool-meta').textContent()).resolves.toBe(`${server.origin} · frame 0 · declarative`);
    });

    it('runs its tools through the bridge: JSON, MCP-style text, and the page’s own error message', async () => {
      const forecast = await fixture.inspector.run('get_forecast', { city: 'Lyon', days: '2' });
      expect(JSON.parse(forecast.text)).toEqual({ city: 'Lyon', days: 2, forecast: 'sunny' });
      const summary = await fixture.inspector.run('weather_summary', { city: 'Oslo' });
      expect(summary).toMatchObject({ text: 'It is sunny in Oslo.', isError: false });
      const storm = await fixture.inspector.run('report_storm');
      expect(storm.isError).toBe(true);
      expect(storm.meta).toMatch(/^Error · took \d+ ms$/);
      expect(storm.text).toContain('The weather service is down.');
    });

    it('shows the output schema the page registered under Returns, and flags a result that does not match it', async () => {
      const card = fixture.inspector.tool('get_temperature');
      await fixture.inspector.openSection('get_temperature', 'Returns');
      expect(JSON.parse((await card.locator('pre.schema-output').textContent()) ?? '')).toEqual({
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city', 'celsius'],
      });
      const run = await fixture.inspector.run('get_temperature', { city: 'Oslo' });
      expect(run).toMatchObject({ text: '21 °C in Oslo.', isError: false });
      await expect(card.locator('.run-check').textContent()).resolves.toBe(
        'Warning: The result\'s structuredContent does not match the tool\'s output schema: "celsius" must be number, got "21".',
      );
    });

    it('keeps a tool whose output schema is broken, without it, and tells its author why', async () => {
      const card = fixture.inspector.tool('get_humidity');
      await expect(card.locator('.finding').allTextContents()).resolves.toContain(
        'Warning: The output schema is left out, so results are not checked against it: the output schema is text that is not valid JSON.',
      );
      await expect(card.locator('summary', { hasText: 'Returns' }).count()).resolves.toBe(0);
      const run = await fixture.inspector.run('get_humidity', { city: 'Oslo' });
      expect(JSON.parse(run.text)).toEqual({ city: 'Oslo', percent: 60 });
      await expect(card.locator('.run-check').count()).resolves.toBe(0);
    });

    it('leaves the page\'s console as the page left it: the polyfill\'s navigator.modelContext, which warns at each read, is not read', async () => {
      const page = await extension.context.newPage();
      const said: string[] = [];
      page.on('console', (message) => said.push(message.text()));
      await page.goto(server.url('/polyfill.html'));
      const inspector = await InspectorPage.open(extension, await tabIdOf(page));
      await inspector.waitForTools(['cancel_alerts', 'get_forecast', 'get_humidity', 'get_temperature', 'radar_image', 'report_storm', 'subscribe_newsletter', 'weather_summary'], 2_000);
      expect(said.filter((text) => /deprecated/i.test(text))).toEqual([]);
      await Promise.all([page.close(), inspector.page.close()]);
    });

    it('answers a call of the polyfill\'s form without toolautosubmit once it is filled, and leaves the sending to the person', async () => {
      const run = await fixture.inspector.run('subscribe_newsletter', { email: 'ada@example.com' });
      expect(run).toMatchObject({ isError: false, text: 'The form is filled in and waits for the person to submit it.' });
      await expect(fixture.page.locator('input[name=email]').inputValue()).resolves.toBe('ada@example.com');
    });

    it('follows a tool removed by aborting its signal within a second', async () => {
      await fixture.page.evaluate(() => (window as unknown as { unregisterTool(name: string): void }).unregisterTool('radar_image'));
      await fixture.inspector.waitForTools(['cancel_alerts', 'get_forecast', 'get_humidity', 'get_temperature', 'report_storm', 'subscribe_newsletter', 'weather_summary'], 1_000);
      expect((await fixture.inspector.changes())[0]).toBe('removed radar_image');
    });
  });

  it('runs a form the polyfill lists as the form it is: its post ends the run, and the card shows what the page it loads gives', async () => {
    await useReplayEngine(await currentServiceWorker(extension.context), {
      replies: [`Ordering.${toolCall('place_order', { qty: 2 })}`, 'never'],
    });
    const page = await extension.context.newPage();
    await page.goto(server.url('/agent/order-form-polyfilled.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5000 }).toBe(0);
    await ask(panel, 'order two mugs');
    const card = panel.locator('[data-testid=tool-card][data-name=place_order]');
    await card.getByTestId('approve-once').click({ timeout: 10_000 });
    await page.waitForURL(/order-placed\.html\?qty=2$/);
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toContain('"orderNumber":"C-42"');
    expect(await card.getAttribute('data-state')).toBe('done');
    expect(await panel.getByTestId('turn-notice').last().textContent()).toContain('The result that page gives is shown with the call.');
    await Promise.all([page.close(), panel.close()]);
  });

  it('a form whose result opens in a new tab, read by the extension, its pop-up blocker on as for a person: the tab opens, and the call says so at once', async () => {
    const blocking = await launchExtension({ webmcp: false, popupBlocking: true });
    try {
      await orderWithResultInNewTab(blocking, server, '/agent/order-form-new-tab.html', { said: 'The form was sent, and its result opened in another tab, window or frame', opens: true });
    } finally {
      await blocking.close();
    }
  });

  describe('an older page: navigator.modelContext with provideContext and registerTool', () => {
    let fixture: InspectedPage;
    beforeAll(async () => {
      fixture = await openFixture('legacy.html');
    });

    it('lists the provided and the registered tools', async () => {
      await fixture.inspector.waitForTools(['add_note', 'clear_notes', 'list_notes'], 2_000);
      await expect(fixture.inspector.tool('clear_notes').locator('.badge').allTextContents()).resolves.toEqual(['consequential']);
    });

    it('runs them, reading MCP-style text and a JSON-string schema', async () => {
      expect((await fixture.inspector.run('add_note', { text: 'Call Ada' })).text).toBe('Added "Call Ada".');
      expect((await fixture.inspector.run('list_notes')).text).toBe('Buy milk\nCall Ada');
      await expect(fixture.page.locator('#notes li').allTextContents()).resolves.toEqual(['Buy milk', 'Call Ada']);
    });

    it('follows unregister() within a second', async () => {
      await fixture.page.evaluate(() => (window as unknown as { removeClearNotes(): void }).removeClearNotes());
      await fixture.inspector.waitForTools(['add_note', 'list_notes'], 1_000);
    });
  });

  it('lists and runs the tools a hand-written shim received in the script that set it up, from its own list', async () => {
    const { page, inspector } = await openFixture('shim-same-script.html');
    await inspector.waitForTools(['add_note', 'delete_notes'], 2_000);
    await expect(inspector.tool('delete_notes').locator('.badge').allTextContents()).resolves.toEqual(['consequential']);
    expect((await inspector.run('add_note', { text: 'Call Ada' })).text).toBe('Added "Call Ada".');
    await expect(page.locator('#notes li').allTextContents()).resolves.toEqual(['Call Ada']);
    // A handle the page got before the bridge found the context says nothing when used; the list
    // is right again at the page's next call.
    await page.evaluate(() => {
      (window as unknown as { removeDeleteNotes(): void }).removeDeleteNotes();
      const context = (navigator as unknown as { modelContext: { registerTool(tool: object): unknown } }).modelContext;
      context.registerTool({ name: 'count_notes', description: 'Count the notes.', execute: () => String(document.querySelectorAll('#notes li').length) });
    });
    await inspector.waitForTools(['add_note', 'count_notes'], 1_000);
    expect((await inspector.run('count_notes')).text).toBe('1');
  });

  it('lists and runs the tools of a polyfill the page loads only after its load event', async () => {
    const { inspector } = await openFixture('late-polyfill.html');
    // The bridge looks again once the page's load handlers ran, and a second later.
    await inspector.waitForTools(['search_articles'], 3_000);
    await expect(inspector.run('search_articles', { query: 'tides' })).resolves.toMatchObject({ text: 'Found 2 articles about tides.', isError: false });
  });

  it('stays silent on a page without WebMCP: no window message, nothing reported', async () => {
    const page = await extension.context.newPage();
    await page.addInitScript(() => {
      const heard: unknown[] = [];
      (window as unknown as { heard: unknown[] }).heard = heard;
      window.addEventListener('message', (event) => heard.push(event.data));
    });
    const inspector = await InspectorPage.open(extension, await tabIdOf(page));
    await page.goto(server.url('empty.html'));
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([]);
    await inspector.page.getByText('This tab offers no WebMCP tools.').waitFor();
  });

  it('reads a declarative <form toolname> itself where the browser does not, and submits it', async () => {
    const { page, inspector } = await openFixture('declarative.html');
    await inspector.waitForTools(['book_table'], 2_000);
    await expect(inspector.tool('book_table').locator('.tool-meta').textContent()).resolves.toBe(`${server.origin} · frame 0 · declarative`);
    await inspector.openSection('book_table', 'Schema');
    const schema = JSON.parse((await inspector.tool('book_table').locator('.schema-given').textContent()) ?? '');
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The name the table is booked under' },
        // Steps of 1, as Chrome writes them: the model reads a whole number.
        guests: { type: 'number', multipleOf: 1, minimum: 1, maximum: 8, description: 'Guests' },
        time: {
          type: 'string',
          anyOf: [
            { type: 'string', const: '18:00', title: '18:00' },
            { type: 'string', const: '20:00', title: '20:00' },
          ],
          enum: ['18:00', '20:00'],
          description: 'Time',
        },
        terrace: { type: 'boolean', description: 'On the terrace' },
      },
      required: ['name', 'guests'],
    });
    const run = await inspector.run('book_table', { name: 'Ada', guests: '3', time: '18:00' });
    // The page answers the agent with respondWith(), as it does for the browser's own WebMCP.
    expect(run).toMatchObject({ text: 'Booked a table for 3 under Ada at 18:00.', isError: false });
    await expect(page.locator('#confirmation').textContent()).resolves.toBe('Booked a table for 3 under Ada at 18:00.');
    await page.evaluate(() => document.getElementById('booking')?.remove());
    await inspector.waitForTools([], 1_000);
  });

  it('refuses a value longer than a field\'s maxlength, which the browser lets a script set, and names the pattern a refused value missed', async () => {
    const { page, inspector } = await openFixture('declarative-constraints.html');
    await inspector.waitForTools(['sign_up'], 2_000);
    await inspector.openSection('sign_up', 'Schema');
    const schema = JSON.parse((await inspector.tool('sign_up').locator('.schema-given').textContent()) ?? '');
    expect(schema.properties.code).toEqual({ type: 'string', pattern: '[A-Z]{3}[0-9]{2}', description: 'Member code' });
    // The schema has the maxlength, said in words for the model (whose schema keeps no lengths); a
    // value past it, run anyway, is refused as the extension fills the form, as a script may set it.
    expect(schema.properties.nick).toEqual({ type: 'string', maxLength: 5, description: '(at most 5 characters) Nickname' });
    const tooLong = await inspector.run('sign_up', { code: 'ABC12', nick: 'toolongnick', letters: 'weekly' }, 10_000, { anyway: true });
    expect(tooLong).toMatchObject({ refused: expect.stringContaining('"nick"'), isError: true, text: '"nick" must be at most 5 characters, not 11 ("toolongnick").' });
    const offStep = await inspector.run('sign_up', { code: 'ABC12', nick: 'Ada', letters: 'weekly', volume: '50' });
    expect(offStep).toMatchObject({ isError: true, text: '"volume" must be a number from 1 to 99 in steps of 2, not 50.' });
    // The inspector's form refuses what breaks the schema's pattern; "Run anyway" shows what the page makes of it.
    const mismatch = await inspector.run('sign_up', { code: 'abc12', nick: 'Ada', letters: 'weekly', volume: '49' }, 10_000, { anyway: true });
    expect(mismatch.refused).toBe('"code" must match [A-Z]{3}[0-9]{2}. The agent does not check this, and would send it.');
    expect(mismatch.text).toMatch(/It must match the pattern \[A-Z\]\{3\}\[0-9\]\{2\} \(Three capital letters, then two digits\)\.\)\.$/);
    await expect(page.locator('#sent').textContent()).resolves.toBe('');
    expect(await inspector.run('sign_up', { code: 'ABC12', nick: 'Ada', letters: 'weekly' })).toMatchObject({ isError: false, text: 'Signed up ABC12.' });
    // The extension's own form reader offers no placeholder choice either.
    expect(schema.properties.letters.enum).toEqual(['weekly', 'monthly']);
  });

  it('gives a form\'s submit agentInvoked and respondWith(), so a page written for WebMCP answers with its result', async () => {
    const { page, inspector } = await openFixture('declarative-respond.html');
    await inspector.waitForTools(['check_menu', 'pay_bill', 'reserve_table'], 2_000);
    const reserved = await inspector.run('reserve_table', { name: 'Ada', guests: '2' });
    expect(reserved.isError).toBe(false);
    expect(JSON.parse(reserved.text)).toEqual({ reserved: true, name: 'Ada', guests: 2 });
    await expect(page.locator('#seen').textContent()).resolves.toBe('agentInvoked: true');
    const paid = await inspector.run('pay_bill', { table: '4' });
    expect(paid).toMatchObject({ isError: true, text: expect.stringContaining('The card was declined.') });
    // respondWith() after an await is refused, as the browser refuses it: the cautious answer.
    await expect(inspector.run('check_menu', { dish: 'soup' })).resolves.toMatchObject({ text: formSubmittedWithoutResult, isError: false });
    await expect(page.locator('#late-error').textContent()).resolves.toBe('InvalidStateError');
    // A person's own submit is not the agent's.
    await page.getByRole('button', { name: 'Reserve' }).click();
    await expect(page.locator('#seen').textContent()).resolves.toBe('agentInvoked: false');
  });

  it('answers at once for a form in a frame written with document.open(), whose listeners the page took', async () => {
    const { page, inspector } = await openFixture('written-frame-form.html');
    await inspector.waitForTools(['reserve_widget'], 3_000);
    const run = await inspector.run('reserve_widget', { name: 'Ada' }, 5_000);
    // The page acted; without the bridge there, its respondWith() is not heard: the cautious answer, not a timeout.
    expect(run).toMatchObject({ isError: false, text: formSubmittedWithoutResult });
    await expect(page.frameLocator('#widget').locator('#seen').textContent()).resolves.toBe('reserved');
  });

  it('reads forms in web components too, leaves out fields the page fixed, and follows choices re-rendered in place', async () => {
    const { page, tabId, inspector } = await openFixture('declarative-components.html');
    await inspector.waitForTools(['book_slot', 'search_menu'], 2_000);
    // Read-only and in a disabled fieldset: neither offered nor required.
    await inspector.openSection('book_slot', 'Schema');
    const schema = () => inspector.tool('book_slot').locator('.schema-given').textContent().then((text) => JSON.parse(text ?? ''));
    await expect(schema()).resolves.toMatchObject({ properties: { slot: { enum: ['fri-18', 'fri-20'] } }, required: ['name'] });
    expect(Object.keys((await schema()).properties)).toEqual(['name', 'slot']);
    // Same <option>s, new values and text: the listing follows.
    await page.evaluate(() => (window as unknown as { showSaturday(): void }).showSaturday());
    await expect.poll(schema, { timeout: 1_000 }).toMatchObject({
      properties: { slot: { anyOf: [{ const: 'sat-12', title: 'Saturday 12:00' }, { const: 'sat-14', title: 'Saturday 14:00' }] } },
    });
    const run = await inspector.run('book_slot', { name: 'Ada', slot: 'sat-14' });
    expect(run).toMatchObject({ text: formSubmittedWithoutResult, isError: false });
    await expect(page.locator('#booked').textContent()).resolves.toBe('name=Ada&price=49.00&slot=sat-14');
    // The form in the open shadow root runs like any other.
    await expect(inspector.run('search_menu', { q: 'soup' })).resolves.toMatchObject({ text: formSubmittedWithoutResult, isError: false });
    await expect(page.locator('#searched').textContent()).resolves.toBe('Searched for soup.');
    // A component defined later gets its shadow root without any change the page's observer sees:
    // found at the next check of undefined elements, which come at most 5 s apart.
    await page.evaluate(() => (window as unknown as { defineNewsletter(): void }).defineNewsletter());
    await inspector.waitForTools(['book_slot', 'search_menu', 'subscribe'], 7_000);
    // A shadow root given quietly to a plain element is found when a panel opens on the tab.
    await page.evaluate(() => (window as unknown as { attachGiftCard(): void }).attachGiftCard());
    const reopened = await InspectorPage.open(extension, tabId);
    await reopened.waitForTools(['book_slot', 'buy_gift_card', 'search_menu', 'subscribe'], 2_000);
    await reopened.page.close();
  });
});
