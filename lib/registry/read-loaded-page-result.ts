import { browser } from 'wxt/browser';
import { sendToContent } from '../messaging/runtime-messaging';
import type { PageResult } from '../webmcp/read-page-result';

export interface LoadedPageQuestion {
  /** How long the new page has to load and answer. */
  timeoutMs?: number;
  /**
   * The document the form was in, where the browser names documents: only a later document of
   * the top frame answers. A form's call may end as its navigation starts, before the new page
   * commits, while the form's own page would still answer.
   */
  formDocumentId?: string;
  /** The document that committed, where the browser named it: that one is asked, and no other. */
  documentId?: string;
  /** Asks the tab's top frame (that document of it, where named); by default, its content script. */
  ask?: (tabId: number, documentId?: string) => Promise<PageResult | null>;
  /** The document the tab's top frame holds now; by default, as `webNavigation` names it. */
  topDocumentId?: (tabId: number) => Promise<string | undefined>;
}

/**
 * The result the page a form just loaded in a tab's top frame gives (see `readPageResult`), or
 * undefined when it gives none or does not answer in time. Its content script arrives a moment
 * after the document commits, and answers once the page is parsed: until then it is asked again.
 */
export async function readLoadedPageResult(tabId: number, question: LoadedPageQuestion = {}): Promise<PageResult | undefined> {
  const {
    timeoutMs = 5_000,
    formDocumentId,
    documentId: committed,
    ask = (tab, documentId) => sendToContent(tab, 'page-result-request', {}, { frameId: 0, ...(documentId === undefined ? {} : { documentId }) }),
    topDocumentId = async (tab) => (await browser.webNavigation.getFrame({ tabId: tab, frameId: 0 }))?.documentId,
  } = question;
  const deadline = Date.now() + timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  const askLoadedPage = async (): Promise<PageResult | null> => {
    if (committed !== undefined) return ask(tabId, committed);
    if (formDocumentId === undefined) return ask(tabId);
    const documentId = await topDocumentId(tabId);
    if (documentId === undefined || documentId === formDocumentId) throw new Error('The new page has not committed yet.');
    return ask(tabId, documentId);
  };
  const asked = (async () => {
    while (Date.now() < deadline) {
      const answer = await askLoadedPage().then(
        (result) => ({ result: result ?? undefined }),
        () => undefined,
      );
      if (answer) return answer.result;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return undefined;
  })();
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}
