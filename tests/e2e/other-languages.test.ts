import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchExtension, serveFixtures, tabIdOf, type FixtureServer, type LaunchedExtension } from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/agent');

/** Where each word starts on screen, left to right, in the element `selector` finds. */
function wordPositions(page: Page, selector: string, words: string[]): Promise<Record<string, number>> {
  return page.locator(selector).first().evaluate((root, words) => {
    const found: Record<string, number> = {};
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of words) {
        const at = node.textContent!.indexOf(word);
        if (at < 0 || word in found) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        found[word] = range.getBoundingClientRect().left;
      }
    }
    return found;
  }, words);
}

/** How far right of a key two spaces less indented the list's Arabic string starts: a few characters where the line reads left to right. */
function jsonLineStart(positions: Record<string, number>): number {
  return Math.abs(positions['أزرق']! - positions['quantity']!);
}

describe.skipIf(!chromiumAvailable)('the side panel with a right-to-left language, long labels and long words, at 320 px', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixtures)]);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  it('shows an Arabic value with a Latin word in it in its own order in the tool card, and keeps a 320 px panel from scrolling sideways', async () => {
    const page = await extension.context.newPage();
    await page.goto(server.url('/arabic-shop.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await panel.setViewportSize({ width: 320, height: 700 });
    await panel.getByTestId('suggestion').first().waitFor({ timeout: 10_000 });
    // A suggestion made of one long word wraps inside the panel.
    expect(await panel.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    // The model says what it does, in Arabic, before its call.
    await useReplayEngine(extension.serviceWorker, { replies: [`سأضيف كوبين.${toolCall('add_to_cart', { product: 'كوب iPhone أحمر', quantity: 2, colors: ['أزرق', 'أخضر'] })}`, 'تم.'] });
    await ask(panel, 'أضف كوبين iPhone أحمر');
    await panel.locator('[data-testid=tool-card][data-state=waiting]').waitFor({ timeout: 15_000 });
    // Read right to left, as the model wrote it: كوب first (rightmost), then iPhone, then أحمر.
    const words = await wordPositions(panel, '[data-testid=tool-arguments]', ['كوب', 'iPhone', 'أحمر', 'quantity', 'أزرق']);
    expect(words['كوب']).toBeGreaterThan(words['iPhone']!);
    expect(words['iPhone']).toBeGreaterThan(words['أحمر']!);
    // A JSON line that starts with an Arabic string ("أزرق", in a list) still reads left to right,
    // indented under the keys, its comma after it: not pushed to the right edge.
    expect(jsonLineStart(words)).toBeLessThan(40);
    // The page's Arabic description ends at its left, not before its first word.
    const description = await wordPositions(panel, '[data-testid=tool-description]', ['يضيف', '.']);
    expect(description['.']).toBeLessThan(description['يضيف']!);
    // Marked as Arabic, as the page's <html lang="ar"> says: a screen reader reads it with an Arabic voice.
    expect(await panel.getByTestId('tool-description').getAttribute('lang')).toBe('ar');
    await panel.getByTestId('approve-once').click();
    await panel.getByTestId('turn').getByText('تم.').waitFor({ timeout: 15_000 });
    await panel.locator('[data-testid=tool-card][data-state=done] summary').click();
    // Wide enough for the result's line not to wrap, so that its words are compared on one line.
    await panel.setViewportSize({ width: 700, height: 700 });
    expect(await panel.getByTestId('tool-result').getAttribute('lang')).toBe('ar');
    const result = await wordPositions(panel, '[data-testid=tool-result]', ['كوب', 'iPhone', 'أحمر', 'message', 'أزرق']);
    expect(result['كوب']).toBeGreaterThan(result['iPhone']!);
    expect(result['iPhone']).toBeGreaterThan(result['أحمر']!);
    expect(jsonLineStart({ quantity: result['message']!, 'أزرق': result['أزرق']! })).toBeLessThan(40);
    // The trace viewer shows the call's arguments and result the same way.
    const traceLink = panel.getByTestId('trace-link').last();
    await traceLink.waitFor({ timeout: 15_000 });
    const viewer = await extension.openExtensionPage((await traceLink.getAttribute('href'))!);
    await viewer.setViewportSize({ width: 900, height: 800 });
    for (const summary of await viewer.getByTestId('step-summary').all()) await summary.click();
    await viewer.getByTestId('call-arguments').first().waitFor();
    for (const [shown, key] of [['call-arguments', 'quantity'], ['call-result', 'message']] as const) {
      const order = await wordPositions(viewer, `[data-testid=${shown}]`, ['كوب', 'iPhone', 'أحمر', key, 'أزرق']);
      expect(order['كوب'], shown).toBeGreaterThan(order['iPhone']!);
      expect(order['iPhone'], shown).toBeGreaterThan(order['أحمر']!);
      expect(jsonLineStart({ quantity: order[key]!, 'أزرق': order['أزرق']! }), shown).toBeLessThan(40);
    }
    // The raw reply, Arabic before its call: the call reads left to right as written, the braces
    // that close it after its last Arabic string, not moved before it as in a right-to-left line.
    const [lastString, closingBraces] = await viewer.getByTestId('raw-output').first().evaluate((pre) => {
      const call = pre.querySelector('mark.part-call')!;
      const text = call.firstChild!.nodeType === Node.TEXT_NODE ? call.firstChild! : document.createTreeWalker(call, NodeFilter.SHOW_TEXT).nextNode()!;
      const left = (at: number, length: number) => {
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + length);
        return range.getBoundingClientRect().left;
      };
      const content = text.textContent!;
      return [left(content.indexOf('أخضر'), 4), left(content.lastIndexOf('}}'), 2)];
    });
    expect(closingBraces).toBeGreaterThan(lastString);
    await viewer.close();
    await panel.close();
    await page.close();
  });

  it('keeps a card\'s tool name in sight at 320 px beside a long state ("Not among the 8 tools shown for this request")', async () => {
    const page = await extension.context.newPage();
    await page.goto(server.url('/many-reports.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await panel.setViewportSize({ width: 320, height: 700 });
    await panel.getByTestId('suggestion').first().waitFor({ timeout: 10_000 });
    await useReplayEngine(extension.serviceWorker, { replies: [toolCall('archive_old_data', {}), 'Here it is.'] });
    await ask(panel, 'open the sales report');
    const card = panel.locator('[data-testid=tool-card][data-name=archive_old_data]').first();
    await card.waitFor({ timeout: 15_000 });
    await expect.poll(() => card.locator('.tool-state').textContent()).toBe('Not among the 8 tools shown for this request');
    const name = await card.locator('.tool-name').evaluate((element) => ({ width: element.getBoundingClientRect().width, cut: element.scrollWidth > element.clientWidth }));
    expect(name).toEqual({ width: expect.any(Number), cut: false });
    expect(name.width).toBeGreaterThan(50);
    await panel.close();
    await page.close();
  });
});
