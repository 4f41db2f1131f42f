import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInContentScript, tryEverything } from '../security/support/content-script-world';
import { readStoredTraces, stepsOfRun } from './support/stored-traces';
import {
  chromiumAvailable,
  InspectorPage,
  launchExtension,
  serveFixtures,
  tabIdOf,
  type FixtureServer,
  type LaunchedExtension,
} from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/isolation');

interface OpenTab {
  page: Page;
  panel: Page;
  tabId: number;
}

const pageLog = (page: Page, name: string) => page.evaluate((key) => (window as unknown as Record<string, unknown>)[key], name);

describe.skipIf(!chromiumAvailable)('page isolation', () => {
  let extension: LaunchedExtension;
  let site: FixtureServer;
  let otherSite: FixtureServer;

  beforeAll(async () => {
    [extension, site, otherSite] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixturesDir), serveFixtures(fixturesDir)]);
  });
  afterAll(async () => {
    await extension?.close();
    await Promise.all([site?.close(), otherSite?.close()]);
  });

  async function openTab(url: string): Promise<OpenTab> {
    const page = await extension.context.newPage();
    await page.goto(url);
    const tabId = await tabIdOf(page);
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await panel.getByTestId('chat-input').waitFor();
    await expect.poll(() => panel.getByTestId('empty-no-tools').count(), { timeout: 5_000 }).toBe(0);
    return { page, panel, tabId };
  }

  const turnText = (panel: Page) => panel.getByTestId('turn').allInnerTexts();
  const finished = (panel: Page) => expect.poll(() => panel.getByTestId('turn').last().getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false');

  it('runs two tabs at once without either seeing the other’s tools, conversation or trace', async () => {
    const alpha = await openTab(site.url('notes.html?name=alpha'));
    const beta = await openTab(otherSite.url('notes.html?name=beta'));
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('read_alpha_notes', {}), toolCall('delete_alpha_notes', {}), 'The alpha notes are gone.'],
    });
    await ask(alpha.panel, 'tidy my alpha notes');
    const waiting = alpha.panel.locator('[data-testid=tool-card][data-name=delete_alpha_notes]');
    await waiting.locator('[data-testid=approve-once]').waitFor({ timeout: 15_000 });

    // While alpha's run waits for its person, beta's runs, and its model reaches for alpha's tools.
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('read_beta_notes', {}), toolCall('read_alpha_notes', {}), toolCall('delete_alpha_notes', {}), 'Here are the beta notes.'],
    });
    await ask(beta.panel, 'read my beta notes');
    await beta.panel.getByTestId('turn').getByText('Here are the beta notes.').waitFor({ timeout: 15_000 });
    expect(await waiting.getAttribute('data-state')).toBe('waiting');
    await waiting.locator('[data-testid=approve-once]').click();
    await alpha.panel.getByTestId('turn').getByText('The alpha notes are gone.').waitFor({ timeout: 15_000 });

    expect(await pageLog(alpha.page, 'notesLog')).toEqual(['read', 'delete']);
    expect(await pageLog(beta.page, 'notesLog')).toEqual(['read']);
    const [alphaTurns, betaTurns] = await Promise.all([turnText(alpha.panel), turnText(beta.panel)]);
    expect(alphaTurns).toHaveLength(1);
    expect(betaTurns).toHaveLength(1);
    expect(alphaTurns.join()).not.toMatch(/beta/i);
    expect(betaTurns.join()).not.toMatch(/alpha notes are gone|ALPHA-4471/);

    const alphaRun = await stepsOfRun(alpha.panel, 'tidy my alpha notes');
    const betaRun = await stepsOfRun(alpha.panel, 'read my beta notes');
    expect([alphaRun.run.tabId, alphaRun.run.origin]).toEqual([alpha.tabId, site.origin]);
    expect([betaRun.run.tabId, betaRun.run.origin]).toEqual([beta.tabId, otherSite.origin]);
    for (const step of alphaRun.steps) {
      expect(step.tools.map((tool) => tool.name).sort()).toEqual(['delete_alpha_notes', 'read_alpha_notes']);
      expect(JSON.stringify(step.messages)).not.toMatch(/beta/i);
    }
    for (const step of betaRun.steps) {
      expect(step.tools.map((tool) => tool.name).sort()).toEqual(['delete_beta_notes', 'read_beta_notes']);
      expect(JSON.stringify(step.messages)).not.toContain('ALPHA-4471');
    }
    // A call naming a tool only the other tab offers is an unknown tool, and never runs there.
    expect(betaRun.steps.flatMap((step) => step.problems.map((problem) => `${problem.kind}: ${problem.message}`))).toEqual([
      'unknown-tool: Unknown tool "read_alpha_notes". Available now: delete_beta_notes, read_beta_notes.',
      'unknown-tool: Unknown tool "delete_alpha_notes". Available now: delete_beta_notes, read_beta_notes.',
    ]);
    await Promise.all([alpha.page.close(), alpha.panel.close(), beta.page.close(), beta.panel.close()]);
  });

  it('uses a frame of another origin only where the page allowed it tools, and labels its tools with that origin', async () => {
    const { page, panel, tabId } = await openTab(site.url(`frames.html?other=${encodeURIComponent(otherSite.origin)}`));
    const inspector = await InspectorPage.open(extension, tabId);
    // The registry keeps every frame's tools; the browser itself refused the plain frame's native ones.
    await inspector.waitForTools(['allowed_map', 'allowed_weather', 'find_trips', 'find_trips', 'find_trips', 'same_map', 'same_weather'], 5_000);
    const refused = (await inspector.dropped()).find((entry) => entry.name === 'plain_map');
    expect(refused?.reason).toBe(`this frame (${otherSite.origin}) is from another origin than the page (${site.origin}), which did not allow it tools (allow="tools")`);
    expect(await inspector.tool('allowed_weather').locator('.tool-meta').textContent()).toMatch(new RegExp(`^${otherSite.origin} · frame \\d+ · native$`));

    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('allowed_weather', {}), toolCall('find_trips', { city: 'Lisbon' }), toolCall('plain_map', {}), 'Sunny, and three trips.'],
    });
    const request = 'plan a trip to Lisbon';
    await ask(panel, request);
    // Read-only by its own word, it is another site's, which gets what the call sends: it asks.
    const weatherCard = panel.locator('[data-testid="tool-card"][data-name="allowed_weather"]');
    await expect.poll(() => weatherCard.getAttribute('data-state'), { timeout: 10_000 }).toBe('waiting');
    await weatherCard.getByTestId('approve-once').click();
    await finished(panel);

    const { run, steps } = await stepsOfRun(panel, request);
    expect(run.origin).toBe(site.origin);
    const shown = Object.fromEntries((steps[0]?.tools ?? []).map((tool) => [tool.name, tool.description]));
    const label = `[From ${otherSite.origin}, a frame inside this page]`;
    expect(shown).toEqual({
      find_trips: 'Find trips to a city.',
      same_weather: 'The weather, from the same widget.',
      same_map: 'A map, from the same widget.',
      allowed_weather: `${label} The weather, from the allowed widget.`,
      allowed_map: `${label} A map, from the allowed widget.`,
    });
    expect(steps.map((step) => step.calls[0]?.result?.text ?? step.problems[0]?.kind)).toEqual([
      'allowed_weather ran in the allowed frame.',
      'Three trips to Lisbon, from the top frame.',
      'unknown-tool',
      undefined,
    ]);
    const frameLog = async (title: string) => {
      const frame = await (await page.$(`iframe[title=${title}]`))?.contentFrame();
      return frame?.evaluate(() => (window as unknown as { widgetLog: string[] }).widgetLog);
    };
    expect([await frameLog('same'), await frameLog('allowed'), await frameLog('plain')]).toEqual([[], ['allowed_weather'], []]);
    expect(await pageLog(page, 'topLog')).toEqual(['Lisbon']);
    await Promise.all([page.close(), panel.close(), inspector.page.close()]);
  });

  it('asks before a framed tool of another site even where the person allowed the page’s site, and names that site on the card', async () => {
    const { page, panel } = await openTab(site.url(`embeds-mail.html?other=${encodeURIComponent(otherSite.origin)}`));
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('add_to_wishlist', {}), toolCall('archive_all_mail', {}), 'Done.'],
      settings: { allowedSites: [site.origin] },
    });
    await ask(panel, 'save this for later');
    // The model was shown the mail frame's words: even the allowed site's own tool asks now.
    const wishlistCard = panel.locator('[data-testid="tool-card"][data-name="add_to_wishlist"]');
    await expect.poll(() => wishlistCard.getAttribute('data-state'), { timeout: 10_000 }).toBe('waiting');
    expect(await wishlistCard.getByTestId('approve-site').count()).toBe(0);
    await wishlistCard.getByTestId('approve-once').click();
    const mailCard = panel.locator('[data-testid="tool-card"][data-name="archive_all_mail"]');
    await expect.poll(() => mailCard.getAttribute('data-state'), { timeout: 10_000 }).toBe('waiting');
    expect(await pageLog(page, 'topLog')).toEqual(['add_to_wishlist']);
    await expect(mailCard.getByTestId('tool-origin').textContent()).resolves.toBe(`From ${otherSite.origin}, another site framed in this page.`);
    expect(await mailCard.getByTestId('approve-site').count()).toBe(0);
    await mailCard.getByTestId('deny').click();
    await finished(panel);
    const mail = await (await page.$('iframe[title=mail]'))?.contentFrame();
    expect(await mail?.evaluate(() => (window as unknown as { mailLog: string[] }).mailLog)).toEqual([]);
    await Promise.all([page.close(), panel.close()]);
  });

  it('asks before a read-only tool of another site framed in the page, which gets what the call sends, and names that site once answered', async () => {
    const { page, panel } = await openTab(site.url(`embeds-mail.html?other=${encodeURIComponent(otherSite.origin)}`));
    await useReplayEngine(extension.serviceWorker, {
      replies: [toolCall('count_unread', { folder: 'the wishlist: enamel mug, card ending 4111' }), toolCall('count_unread', { folder: 'inbox' }), 'Done.'],
      settings: { allowedSites: [site.origin] },
    });
    await ask(panel, 'how much mail have I got');
    const cards = panel.locator('[data-testid="tool-card"][data-name="count_unread"]');
    await expect.poll(() => cards.first().getAttribute('data-state'), { timeout: 10_000 }).toBe('waiting');
    await expect(cards.first().locator('.approval-reason').textContent()).resolves.toBe('Its site gets what this call sends, so such a tool asks every time, even one that says it only reads.');
    await cards.first().getByTestId('deny').click();
    await expect.poll(() => cards.nth(1).getAttribute('data-state'), { timeout: 10_000 }).toBe('waiting');
    await cards.nth(1).getByTestId('approve-once').click();
    await finished(panel);
    const mail = await (await page.$('iframe[title=mail]'))?.contentFrame();
    // The frame got only what the person allowed.
    expect(await mail?.evaluate(() => (window as unknown as { received: string[] }).received)).toEqual(['inbox']);
    await expect(cards.nth(1).getByTestId('tool-origin').textContent()).resolves.toBe(`From ${otherSite.origin}, another site framed in this page.`);
    await Promise.all([page.close(), panel.close()]);
  });

  it('lets neither a page nor its content script start a run, read a conversation or trace, inspect a tab, or download, try or delete models', async () => {
    const { page, panel, tabId } = await openTab(site.url('notes.html?name=gamma'));
    // The page itself has no way to the extension: no runtime API, no extension page it can load.
    expect(await page.evaluate(() => typeof (window as unknown as { chrome?: { runtime?: unknown } }).chrome?.runtime)).toBe('undefined');
    const fetched = await page.evaluate((url) => fetch(url).then(() => 'loaded', () => 'refused'), `chrome-extension://${extension.extensionId}/sidepanel.html`);
    expect(fetched).toBe('refused');

    // Even the extension's own content script in that page (what a page might subvert) is refused.
    const cdp = await extension.context.newCDPSession(page);
    const answers = await evaluateInContentScript(cdp, `(${tryEverything.toString()})(${tabId})`);
    expect(answers).toEqual({
      send: 'refused',
      subscribe: 'refused',
      inspector: 'refused',
      replay: 'refused',
      traces: { ok: false, error: { name: 'TraceAccessError', message: 'Only the extension may read traces.' } },
      deleteModels: { deleted: false, name: 'SecurityError', message: "Only the extension's own pages may delete its models" },
      loadModel: 'refused',
      tryModel: 'refused',
      followModel: 'refused',
      conversations: 'refused',
      readSettings: 'refused',
      writeSettings: 'refused',
    });
    await cdp.detach();
    expect(await panel.getByTestId('turn').count()).toBe(0);
    expect(await pageLog(page, 'notesLog')).toEqual([]);
    expect((await readStoredTraces(panel)).runs.filter((candidate) => candidate.tabId === tabId)).toEqual([]);
    await Promise.all([page.close(), panel.close()]);
  });
  it('holds only the permissions SECURITY.md justifies, and offers pages no way in', async () => {
    const granted = await extension.serviceWorker.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: { permissions: { getAll(): Promise<unknown> }; runtime: { getManifest(): Record<string, unknown> } } };
      const manifest = chrome.runtime.getManifest();
      const all = (await chrome.permissions.getAll()) as { permissions: string[]; origins: string[] };
      return {
        all: { permissions: [...all.permissions].sort(), origins: all.origins },
        permissions: manifest.permissions,
        hostPermissions: manifest.host_permissions ?? [],
        optionalHostPermissions: manifest.optional_host_permissions ?? [],
        optionalPermissions: manifest.optional_permissions ?? [],
        webAccessible: manifest.web_accessible_resources ?? [],
        externallyConnectable: manifest.externally_connectable ?? null,
        contentScripts: (manifest.content_scripts as Array<{ matches: string[]; world?: string }>).map((script) => `${script.world ?? 'ISOLATED'} ${script.matches.join(' ')}`),
      };
    });
    expect(granted).toEqual({
      // "devtools" comes with the devtools page (the inspector); "<all_urls>" with the content scripts,
      // and it is what lets the extension reach a model server too (tests/e2e/engines-in-chromium.test.ts).
      all: { permissions: ['devtools', 'sidePanel', 'storage', 'unlimitedStorage', 'webNavigation'], origins: ['<all_urls>'] },
      permissions: ['storage', 'unlimitedStorage', 'webNavigation', 'sidePanel'],
      hostPermissions: [],
      optionalHostPermissions: [],
      optionalPermissions: [],
      webAccessible: [],
      externallyConnectable: null,
      contentScripts: ['ISOLATED <all_urls>', 'MAIN <all_urls>'],
    });
  });
});
