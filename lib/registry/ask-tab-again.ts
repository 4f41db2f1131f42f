import { sendToContent } from '../messaging/runtime-messaging';

/**
 * Asks every frame of a tab to look for its tools again and report them, those no event announced
 * included (a polyfill set up late, a form in a shadow root attached quietly). For a panel that
 * starts watching the tab; a tab without the content script has nobody to answer, and that is fine.
 */
export function askTabAgain(tabId: number): void {
  sendToContent(tabId, 'tools-request', {}).catch(() => undefined);
}
