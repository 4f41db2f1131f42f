import { browser } from 'wxt/browser';
import { isExtensionPage } from './extension-page-sender';

/**
 * One-shot requests from the extension's own pages to the background, for a service whose
 * requests and answers carry their own schemas (the trace viewer's, and the options page's model
 * deletions and news of models changed). Resolves with the answer, or undefined when no listener
 * answered; rejects where no background can be reached.
 */
export async function askBackgroundFromPage(request: unknown): Promise<unknown> {
  return browser.runtime.sendMessage(request);
}

/**
 * The background answers the requests `isMine` recognises, from the extension's own pages only;
 * a web page or a content script gets `refusal`. Other messages are left to other listeners.
 * Returns a function that stops listening.
 */
export function answerExtensionPages(
  isMine: (message: unknown) => boolean,
  answer: (message: unknown) => Promise<unknown>,
  refusal: unknown,
): () => void {
  const listener = (message: unknown, sender: Parameters<typeof isExtensionPage>[0], sendResponse: (response: unknown) => void) => {
    if (!isMine(message)) return undefined;
    if (!isExtensionPage(sender)) {
      sendResponse(refusal);
      return undefined;
    }
    // An answer that fails still answers, with nothing: the page's request fails at once, rather
    // than wait until Chrome closes the channel.
    answer(message).then(sendResponse, (error: unknown) => {
      console.error('An extension page’s request failed:', error);
      sendResponse(undefined);
    });
    // Answered asynchronously: keep the channel open.
    return true;
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}
