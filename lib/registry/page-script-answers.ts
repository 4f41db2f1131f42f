import { errorMessage } from '../messaging/error-message';
import { sendToContent } from '../messaging/runtime-messaging';

// What the browser says when no content script listens in the tab.
const nobodyListens = /receiving end does not exist|could not establish connection/i;

export interface PageScriptQuestion {
  /** How long a busy page may take to answer. */
  timeoutMs?: number;
  /**
   * How long "nobody listens" is asked again: a document that has just committed gets its
   * content script a moment later, even while a slow script of the page holds its parser.
   */
  settleMs?: number;
  /** Asks the tab's top frame; by default, for its tools. */
  ask?: (tabId: number) => Promise<unknown>;
}

/**
 * Whether the extension's content script runs in a tab's top frame: asks it to report its tools
 * (it answers even when it has none). It does not run in pages that were open before the
 * extension was installed or updated, nor in browser pages. Any other failure counts as an
 * answer, so a page is never called unreachable for a reason a reload would not fix.
 */
export async function pageScriptAnswers(tabId: number, question: PageScriptQuestion = {}): Promise<boolean> {
  const { timeoutMs = 2_000, settleMs = 1_500, ask = (tab) => sendToContent(tab, 'tools-request', {}, { frameId: 0 }) } = question;
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A page too busy to answer in time still has the script: only "nobody listens" says it does not.
  const slow = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
  const asked = (async () => {
    for (;;) {
      const listens = await ask(tabId).then(
        () => true,
        (error: unknown) => !nobodyListens.test(errorMessage(error)),
      );
      if (listens || Date.now() - started >= settleMs) return listens;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    return await Promise.race([asked, slow]);
  } finally {
    clearTimeout(timer);
  }
}
