/** The options page's address that opens it at its welcome (`WelcomeSection`). */
export const welcomeQuery = 'welcome';

/** Set in `storage.local` once the welcome has opened: a profile sees it once. */
const welcomedKey = 'welcomed';

/**
 * A first install opens the options at their welcome: which engine runs the model (WebLLM's is
 * downloaded once), where pages' tools come from, and how to open the side panel. Neither an
 * update nor a reload of the extension does, nor a browser that loads it from its folder at each
 * start (`--load-extension`, as `npm start` does), which Chrome reports as an install every time.
 */
export function openWelcomeOnInstall(): void {
  browser.runtime.onInstalled.addListener(({ reason }) => {
    if (reason !== 'install') return;
    void (async () => {
      if ((await browser.storage.local.get(welcomedKey))[welcomedKey] === true) return;
      await browser.tabs.create({ url: `${browser.runtime.getURL('/options.html')}?${welcomeQuery}` });
      // Only once it opened: a welcome that could not open comes at the next install.
      await browser.storage.local.set({ [welcomedKey]: true });
    })().catch(() => {
      // Storage or a window out of reach (the browser closing as it installs): the options wait for the menu.
    });
  });
}
