import { sendToContent } from '../messaging/runtime-messaging';

/**
 * Asks a tab's frames (or one of them) to report their tools again; a tab without the content
 * script has nobody to answer, and that is fine. A panel or an inspector opening on the tab asks
 * more of it: see `lookAgainInTab`.
 */
export function requestTabTools(tabId: number, { frameId }: { frameId?: number } = {}): void {
  sendToContent(tabId, 'tools-request', {}, frameId === undefined ? {} : { frameId }).catch(() => undefined);
}
