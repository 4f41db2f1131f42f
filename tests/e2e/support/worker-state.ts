import type { BrowserContext, Worker } from 'playwright-core';

/** Whether the extension's service worker runs now, as Chrome lists its targets (Playwright keeps listing a stopped one). */
export async function serviceWorkerRunning(context: BrowserContext): Promise<boolean> {
  const session = await context.newCDPSession(context.pages()[0] ?? (await context.newPage()));
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    return targetInfos.some((target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'));
  } finally {
    await session.detach();
  }
}

/** Whether a navigation would start the worker once stopped: Chrome does so while a listener is added to it. */
export function hearsNavigations(worker: Worker): Promise<boolean> {
  return worker.evaluate(() => (globalThis as unknown as NavigationGlobal).chrome.webNavigation.onCommitted.hasListeners());
}
interface NavigationGlobal {
  chrome: { webNavigation: { onCommitted: { hasListeners(): boolean } } };
}
