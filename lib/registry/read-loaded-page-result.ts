import { sendToContent } from '../messaging/runtime-messaging';
import type { PageResult } from '../webmcp/read-page-result';

export interface LoadedPageQuestion {
  /** How long the new page has to load and answer. */
  timeoutMs?: number;
  /** Asks the tab's top frame; by default, its content script. */
  ask?: (tabId: number) => Promise<PageResult | null>;
}

/**
 * The result the page a form just loaded in a tab's top frame gives (see `readPageResult`), or
 * undefined when it gives none or does not answer in time. Its content script arrives a moment
 * after the document commits, and answers once the page is parsed: until then it is asked again.
 */
export async function readLoadedPageResult(tabId: number, question: LoadedPageQuestion = {}): Promise<PageResult | undefined> {
  const { timeoutMs = 5_000, ask = (tab) => sendToContent(tab, 'page-result-request', {}, { frameId: 0 }) } = question;
  const deadline = Date.now() + timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  const asked = (async () => {
    while (Date.now() < deadline) {
      const answer = await ask(tabId).then(
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
