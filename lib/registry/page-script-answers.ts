import { sendToContent } from '../messaging/runtime-messaging';

// What the browser says when no content script listens in the tab.
const nobodyListens = /receiving end does not exist|could not establish connection/i;

/**
 * Whether the extension's content script runs in a tab's top frame: asks it to report its tools
 * (it answers even when it has none). It does not run in pages that were open before the
 * extension was installed or updated, nor in browser pages. Any other failure counts as an
 * answer, so a page is never called unreachable for a reason a reload would not fix.
 */
export async function pageScriptAnswers(tabId: number, timeoutMs = 2_000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A page too busy to answer in time still has the script: only "nobody listens" says it does not.
  const slow = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
  const asked = sendToContent(tabId, 'tools-request', {}, { frameId: 0 }).then(
    () => true,
    (error: unknown) => !nobodyListens.test(error instanceof Error ? error.message : String(error)),
  );
  try {
    return await Promise.race([asked, slow]);
  } finally {
    clearTimeout(timer);
  }
}
