import { sendToContent } from '../messaging/runtime-messaging';
import { errorMessage } from '../messaging/error-message';
import type { TabToolRegistry } from './tab-tool-registry';

/** Whether a message to a page found no content script to take it: its document is gone, or crashed. */
export function foundNoPage(error: unknown): boolean {
  return /receiving end does not exist|could not establish connection/i.test(errorMessage(error));
}

/**
 * Asks every frame of a tab to look for its tools again (a panel or an inspector opens on it):
 * each first looks for tools no event announced, such as a form in a shadow root attached quietly
 * (a walk of its whole page, so not for every reason to ask), then reports. Where none answers,
 * the documents its tools came from are gone: a page whose renderer crashed, of which Chrome tells
 * extensions nothing, would keep its tools listed and counted. Each goes by the browser's name for
 * it, so the report of a page loading meanwhile stays.
 */
export async function lookAgainInTab(registry: TabToolRegistry, tabId: number): Promise<void> {
  const documents = await registry.documents(tabId);
  const answered = await sendToContent(tabId, 'tools-request', { lookAgain: true }).then(
    () => true,
    (error: unknown) => !foundNoPage(error),
  );
  if (!answered) await Promise.all(documents.map(({ frameId, documentId }) => registry.frameGone(tabId, frameId, documentId)));
}
