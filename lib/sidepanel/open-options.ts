import { browser } from 'wxt/browser';

/** Opens the extension's options page (a tab, or the one already open). */
export function openOptions(): void {
  try {
    void Promise.resolve(browser.runtime.openOptionsPage()).catch(() => undefined);
  } catch {
    // Only where there is no extension runtime (a page opened on its own): nothing to open.
  }
}
