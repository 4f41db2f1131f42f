import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { forgetCachedWorkers } from '../../scripts/forget-cached-workers';
import { chromiumAvailable, chromiumPath, extensionDir, quietBrowserFlags } from './support';

/**
 * Opens the profile with the extension in `dir`, and reads what its background says of its build
 * and what its Cache Storage holds (where WebLLM keeps downloaded models), after putting `cache` there.
 */
async function backgroundBuild(profileDir: string, dir: string, cache?: string): Promise<{ build: string; cached: string[] }> {
  const args = [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`, ...quietBrowserFlags];
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath, headless: true, args });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    return await worker.evaluate(async (name) => {
      const models = await caches.open('test-models');
      if (name) await models.put(`https://models.example/${name}`, new Response('weights'));
      const cached = (await models.keys()).map((request) => new URL(request.url).pathname);
      return { build: (globalThis as { rebuiltAs?: string }).rebuiltAs ?? 'first build', cached };
    }, cache);
  } finally {
    await context.close();
  }
}

describe.skipIf(!chromiumAvailable)('a rebuilt extension in a kept profile, as `npm start` keeps one', () => {
  it('runs the background just built, not the copy the browser kept of the last one, and keeps the models downloaded', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'webmcp-rebuilt-'));
    const [profileDir, dir] = [join(folder, 'profile'), join(folder, 'extension')];
    try {
      await cp(extensionDir, dir, { recursive: true });
      expect(await backgroundBuild(profileDir, dir, 'qwen3.bin')).toEqual({ build: 'first build', cached: ['/qwen3.bin'] });
      // A new build in the same folder: its background says so, and the downloaded models stay.
      await appendFile(join(dir, 'background.js'), '\nglobalThis.rebuiltAs = "second build";\n');
      forgetCachedWorkers(profileDir);
      expect(await backgroundBuild(profileDir, dir)).toEqual({ build: 'second build', cached: ['/qwen3.bin'] });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
