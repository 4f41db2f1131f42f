import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, DevToolsFrontEnd, launchExtension, serveFixtures, type FixtureServer, type LaunchedExtension } from './support';

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
