import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { browserPathFromEnvironment, looksLikeBrandedChrome } from '../../../scripts/browser-path';
import { projectRoot } from '../../support/shared-eval';

/**
 * Debian's Chromium; another Chromium or Chrome for Testing is named with CHROMIUM_PATH (or
 * CHROME_PATH), as for `npm start`. No browser is ever downloaded.
 */
export const chromiumPath = browserPathFromEnvironment()?.path ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(chromiumPath);
export const extensionDir = resolve(projectRoot, '.output/chrome-mv3');

/** What keeps a test browser from calling home, syncing or updating parts of itself while it runs. */
export const quietBrowserFlags = [
  '--no-sandbox',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export interface LaunchOptions {
  /** The browser's own WebMCP (`--enable-features=WebMCP`). Default true. */
  webmcp?: boolean;
  /** A (software) WebGPU adapter (`--enable-unsafe-webgpu`). Default false. */
  webgpu?: boolean;
  /** DevTools opens with every tab (`--auto-open-devtools-for-tabs`); see DevToolsFrontEnd. Default false. */
  devtools?: boolean;
  /** An unpacked extension to load instead of the built one, such as a test-only probe. */
  extension?: string;
  /** More command-line flags. */
  flags?: string[];
  /** Chrome's pop-up blocker, on as for a person (Playwright turns it off by default). Default false. */
  popupBlocking?: boolean;
  /** Leaves open the welcome tab that the install opens (`welcomePage`); by default it is closed. */
  keepWelcome?: boolean;
}

export interface LaunchedExtension {
  context: BrowserContext;
  extensionId: string;
  /** The service worker as it was at launch; after a restart use `currentServiceWorker`. */
  serviceWorker: Worker;
  /** The options at their welcome, as the install opened them, where `keepWelcome` kept it. */
  welcomePage?: Page;
  openExtensionPage(path: string): Promise<Page>;
  close(): Promise<void>;
}

/** Chromium, headless, with the built extension (or `options.extension`) loaded, in a fresh profile that is removed on close. */
export async function launchExtension(options: LaunchOptions = {}): Promise<LaunchedExtension> {
  const extension = options.extension ?? extensionDir;
  if (!existsSync(join(extension, 'manifest.json'))) {
    throw new Error(options.extension === undefined
      ? `The extension is not built (no ${join(extension, 'manifest.json')}): run "npx wxt build" first.`
      : `No extension at ${extension}: it has no manifest.json.`);
  }
  if (!chromiumAvailable) throw new Error(`Chromium was not found at ${chromiumPath}; set CHROMIUM_PATH.`);
  if (looksLikeBrandedChrome(chromiumPath)) {
    throw new Error(`${chromiumPath} looks like branded Google Chrome, which ignores --load-extension since 137; ` +
      'set CHROMIUM_PATH to a Chromium or Chrome for Testing build.');
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'webmcp-extension-e2e-'));
  const args = [
    // Playwright adds --disable-extensions; naming the extension here is what lets it load.
    `--disable-extensions-except=${extension}`,
    `--load-extension=${extension}`,
    ...quietBrowserFlags,
    ...(options.webmcp === false ? [] : ['--enable-features=WebMCP']),
    ...(options.webgpu ? ['--enable-unsafe-webgpu'] : []),
    ...(options.devtools ? ['--auto-open-devtools-for-tabs'] : []),
    ...(options.flags ?? []),
  ];
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args,
    ...(options.popupBlocking ? { ignoreDefaultArgs: ['--disable-popup-blocking'] } : {}),
  });
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(serviceWorker.url()).host;
  extensionIds.set(context, extensionId);
  // A build of this extension (a copy of it too, but not a test's probe) opens its welcome as it is
  // installed: tests start without it, unless kept.
  const welcomePage = existsSync(join(extension, 'options.html')) ? await welcomeTab(context, extensionId) : undefined;
  if (welcomePage && !options.keepWelcome) await welcomePage.close();
  return {
    context,
    extensionId,
    serviceWorker,
    ...(welcomePage && options.keepWelcome ? { welcomePage } : {}),
    async openExtensionPage(path) {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${path.replace(/^\//, '')}`);
      return page;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Closes the tab the install opened at the options' welcome, for a browser launched otherwise (a bench's). */
export async function closeWelcomeTab(context: BrowserContext, extensionId: string): Promise<void> {
  await (await welcomeTab(context, extensionId)).close();
}

/** The tab the install opened at the options' welcome; it comes within moments of the worker's start. */
async function welcomeTab(context: BrowserContext, extensionId: string): Promise<Page> {
  const address = `chrome-extension://${extensionId}/options.html?welcome`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const page = context.pages().find((candidate) => candidate.url() === address);
    if (page) return page;
    if (Date.now() > deadline) throw new Error(`The install opened no welcome tab (${address}) within 15 s.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The extension's service worker now (it may have been stopped and started again). */
export async function currentServiceWorker(context: BrowserContext): Promise<Worker> {
  const running = context.serviceWorkers()[0];
  if (running) return running;
  // Stopped, and an idle panel no longer wakes it: start it as the next event would.
  const started = context.waitForEvent('serviceworker');
  const extensionId = extensionIds.get(context);
  if (extensionId) {
    const session = await context.newCDPSession(context.pages()[0] ?? (await context.newPage()));
    try {
      await session.send('ServiceWorker.enable');
      await session.send('ServiceWorker.startWorker', { scopeURL: `chrome-extension://${extensionId}/` });
    } finally {
      await session.detach();
    }
  }
  return started;
}

const extensionIds = new WeakMap<BrowserContext, string>();

/** Stops the extension's service worker, as Chrome does after 30 s idle; the next event starts it again. */
export async function stopServiceWorker(context: BrowserContext): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage());
  const session = await context.newCDPSession(page);
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    const worker = targetInfos.find((target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'));
    if (!worker) throw new Error('The extension has no running service worker to stop.');
    await session.send('Target.closeTarget', { targetId: worker.targetId });
  } finally {
    await session.detach();
  }
}
