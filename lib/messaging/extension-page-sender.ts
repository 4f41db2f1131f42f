import { browser, type Browser } from 'wxt/browser';

/** Whether a message or port comes from one of the extension's own pages, not a page or a content script. */
export function isExtensionPage(sender: Browser.runtime.MessageSender | undefined): boolean {
  return sender?.id === browser.runtime.id && (sender.url ?? '').startsWith(browser.runtime.getURL('/' as never));
}
