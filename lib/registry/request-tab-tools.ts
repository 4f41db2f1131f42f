import { sendToContent } from '../messaging/runtime-messaging';

/**
 * Asks a tab's frames (or one of them) to report their tools again; a tab without the content
 * script has nobody to answer, and that is fine. With `lookAgain` (a panel opening on the tab)
 * each frame first looks for tools no event announced, such as a form in a shadow root attached
 * quietly: a walk of its whole page, so not for every reason to ask.
 */
export function requestTabTools(tabId: number, { frameId, lookAgain = false }: { frameId?: number; lookAgain?: boolean } = {}): void {
  sendToContent(tabId, 'tools-request', lookAgain ? { lookAgain } : {}, frameId === undefined ? {} : { frameId }).catch(() => undefined);
}
