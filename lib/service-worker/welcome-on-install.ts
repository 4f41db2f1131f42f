/** The options page's address that opens it at its welcome (`WelcomeSection`). */
export const welcomeQuery = 'welcome';

/**
 * A first install opens the options at their welcome: which engine runs the model (WebLLM's is
 * downloaded once), where pages' tools come from, and how to open the side panel. Neither an
 * update nor a reload of the extension does: the person has seen it.
 */
export function openWelcomeOnInstall(): void {
  browser.runtime.onInstalled.addListener(({ reason }) => {
    if (reason !== 'install') return;
    const url = `${browser.runtime.getURL('/options.html')}?${welcomeQuery}`;
    void browser.tabs.create({ url }).catch(() => {
      // No window to open it in (the browser closing as it installs): the options wait for the menu.
    });
  });
}
