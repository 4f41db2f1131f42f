import { browser } from 'wxt/browser';

/**
 * Chrome stops an idle service worker after 30 s; an extension API call resets that clock. A
 * download or a long prefill can pass 30 s without any event, so call a cheap API every 20 s.
 * Returns the function that stops it.
 */
export function keepServiceWorkerAwake(intervalMs = 20_000): () => void {
  const timer = setInterval(touchExtensionApi, intervalMs);
  return () => clearInterval(timer);
}

function touchExtensionApi(): void {
  try {
    void browser.runtime.getPlatformInfo().catch(() => {});
  } catch {
    // Outside an extension (tests) there is nothing to keep awake.
  }
}
