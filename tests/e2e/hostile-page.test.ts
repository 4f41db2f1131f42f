import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  InspectorPage,
  launchExtension,
  serveFixtures,
  tabIdOf,
  type FixtureServer,
  type LaunchedExtension,
} from './support';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const bulkNames = Array.from({ length: 300 }, (_, index) => `bulk_${String(index).padStart(3, '0')}`);
const validNames = [...bulkNames, 'legacy_never', 'legacy_ok', 'legacy_throws', 'never_answers', 'throws_error'];

describe.skipIf(!chromiumAvailable)('a hostile page', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;
  let page: Page;
  let inspector: InspectorPage;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixturesDir)]);
    page = await extension.context.newPage();
    inspector = await InspectorPage.open(extension, await tabIdOf(page));
    await page.goto(server.url('hostile.html'));
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  it('lists exactly the valid tools, all 300 of the bulk ones included', async () => {
    await inspector.waitForTools(validNames, 5_000);
    await expect(inspector.page.locator('.tool-count').textContent()).resolves.toBe('305 tools');
  });

  it('shows why each invalid tool was dropped', async () => {
    const dropped = await inspector.dropped();
    const reasonOf = (name: string) => dropped.find((entry) => entry.name === name)?.reason;
    expect(reasonOf('huge_description')).toBe('the description is 1,048,576 characters, over the limit of 10,000');
    expect(reasonOf('bad name!')).toBe('the name must be 1–128 characters of A–Z, a–z, 0–9, "_", "." or "-"');
    expect(reasonOf(`${'y'.repeat(80)}…`)).toBe('the name must be 1–128 characters of A–Z, a–z, 0–9, "_", "." or "-"');
    expect(reasonOf('(empty name)')).toBe('the name is missing or not text');
    expect(reasonOf('schema_not_object')).toBe('the input schema must be a JSON object, not a number');
    expect(reasonOf('schema_is_text')).toBe('the input schema is text that is not valid JSON');
    expect(reasonOf('cyclic_schema')).toBe('the input schema cannot be used: it is nested too deeply');
    expect(reasonOf('no_description')).toBe('the description is missing or empty');
    expect(reasonOf('bulk_001')).toBe('another tool of this page already has this name');
    // The browser itself refused the bad name, so it never reached the extension.
    const report = await page.evaluate(() => (window as unknown as { hostileReport: { nativeRejected: string[] } }).hostileReport);
    expect(report.nativeRejected).toEqual(['bad name: InvalidStateError']);
  });

  it('shows a tool’s error, and the page’s own message where the page gives it', async () => {
    const native = await inspector.run('throws_error');
    expect(native.isError).toBe(true);
    expect(native.text).toContain('the script function threw an error');
    const bridged = await inspector.run('legacy_throws');
    expect(bridged).toMatchObject({ isError: true, text: 'Legacy tool failed on purpose.' });
  });

  it('ignores forged bridge answers: a bridged tool gives its real result', async () => {
    const run = await inspector.run('legacy_ok');
    expect(run).toMatchObject({ isError: false, text: 'Hello from the older context.' });
    const forged = await page.evaluate(() => (window as unknown as { hostileReport: { forged: number } }).hostileReport.forged);
    expect(forged).toBeGreaterThan(4_000);
    await expect(inspector.page.getByText('FORGED', { exact: false }).count()).resolves.toBe(0);
  });

  it('times a hanging tool out with a clear message', async () => {
    await inspector.setTimeoutSeconds(1);
    const run = await inspector.run('never_answers');
    expect(run).toMatchObject({ isError: true, text: 'The tool "never_answers" did not answer within 1 s.' });
    expect(run.meta).toMatch(/^Error · took (1\d{3}) ms$/);
    // Through the bridge too, and the page's tool is told to stop.
    const bridged = await inspector.run('legacy_never');
    expect(bridged).toMatchObject({ isError: true, text: 'The tool "legacy_never" did not answer within 1 s.' });
    await expect.poll(() => page.evaluate(() => (window as unknown as { hostileReport: { legacyAborted?: boolean } }).hostileReport.legacyAborted)).toBe(true);
    await inspector.setTimeoutSeconds(30);
  });

  it('keeps working after the hostile page: the same tab then lists and runs a normal page', async () => {
    await page.goto(server.url('native.html'));
    await inspector.waitForTools(['add_to_cart', 'search_products', 'track_order'], 2_000);
    expect(await inspector.dropped()).toEqual([]);
    const run = await inspector.run('track_order', { order: 'C-3' });
    expect(run.text).toBe('Order C-3 is on its way.');
  });
});
