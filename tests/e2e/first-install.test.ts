import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchExtension, type LaunchedExtension } from './support';

// The tab a first install opens: the person's first look at the extension.
describe.skipIf(!chromiumAvailable)('the first install', () => {
  let extension: LaunchedExtension;
  beforeAll(async () => {
    extension = await launchExtension({ keepWelcome: true, webgpu: true });
  });
  afterAll(async () => extension?.close());

  it('opens the options at their welcome: the model to download, where tools come from, and the keys that open the panel', async () => {
    const page = extension.welcomePage!;
    const welcome = page.getByTestId('welcome');
    await expect.poll(() => welcome.isVisible()).toBe(true);
    // Chromium's software adapter runs WebLLM without 16-bit shaders: the default is the 32-bit build.
    await expect.poll(() => welcome.innerText()).toMatch(/WebLLM, the engine chosen below, runs Qwen3 0\.6B \(q4f32\) on your graphics chip\. It downloads about [\d.]+ MB once/);
    const text = await welcome.innerText();
    expect(text).toContain('chrome://flags/#enable-webmcp-testing');
    expect(text).toContain('or press Alt+Shift+M: the side panel opens beside the page');
    // The page is read from its welcome, and the settings follow it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('welcome-heading');
    await expect.poll(() => page.getByRole('button', { name: 'Download now' }).isVisible()).toBe(true);
  });

  it('goes with "Got it", and stays gone when the page is opened again', async () => {
    const page = extension.welcomePage!;
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect.poll(() => page.getByTestId('welcome').count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Engine' }).isVisible()).toBe(true);
    expect(await page.getByTestId('welcome').count()).toBe(0);
  });
});
