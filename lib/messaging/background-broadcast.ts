import { browser, type Browser } from 'wxt/browser';

/**
 * Words from the background to every open extension page (the side panels, the trace viewer),
 * with no answer expected. None being open is the usual case: then nobody hears them.
 */
export function tellExtensionPages(message: unknown): void {
  browser.runtime.sendMessage(message).catch(() => undefined);
}

/**
 * In an extension page: calls `listener` with what the background tells the pages. Only the
 * background's words count: a content script's (or a page in a tab's) message names a tab.
 * Returns a function that stops listening.
 */
export function hearBackground(listener: (message: unknown) => void): () => void {
  const onMessage = (message: unknown, sender: Browser.runtime.MessageSender) => {
    if (sender.id !== browser.runtime.id || sender.tab !== undefined) return;
    listener(message);
  };
  browser.runtime.onMessage.addListener(onMessage);
  return () => browser.runtime.onMessage.removeListener(onMessage);
}
