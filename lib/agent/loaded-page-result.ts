// A form that posts ends the run by loading a page, which may give the form's result (its JSON-LD,
// as WebMCP's declarative explainer proposes): the card of the call that loaded it shows it. A page
// that gives none still says the form was sent, and where it went; so does the card of a script's
// tool that opened a page. A page that came with an error status (404) says the form failed there.
import { traceAddress } from '../traces/trace-address';
import { statusWords, type PageResult } from '../webmcp/read-page-result';
import type { ToolCard, Turn } from './session-state';
import { pageErrorNotice, pageLoadedNotice, pageOpenedNotice, pageResultNotice } from './turn-notices';

/**
 * `turn` with the card of `tool`'s call showing the page it loaded and what that page gives, and
 * its notice saying so where the page ended the turn; undefined where the turn has no such card, or
 * that call did not navigate.
 */
export function withLoadedPageResult(turn: Turn, tool: { name: string; callId: string; loadedBy: 'form' | 'script' }, loaded: PageResult): Turn | undefined {
  const card = turn.items.find((item): item is ToolCard => item.kind === 'tool' && item.callId === tool.callId);
  // Only the call that navigated: one that failed, or answered otherwise, keeps what it said.
  if (card?.state !== 'unanswered') return undefined;
  const byScript = tool.loadedBy === 'script';
  // Without its query: a form sent by GET puts its values there, a password among them.
  const url = traceAddress(loaded.url);
  const status = byScript ? undefined : loaded.status;
  const loadedPage = { url, ...(loaded.title ? { title: loaded.title } : {}), ...(byScript ? { byScript } : {}), ...(status ? { status } : {}) };
  const shown: ToolCard = status
    ? { ...card, state: 'failed', result: refusedWords(loadedPage, status, loaded.data), ...(loaded.data === undefined ? {} : { pageResult: loaded.data }), loadedPage }
    : byScript || loaded.data === undefined
      ? { ...card, state: 'done', result: (byScript ? openedWords : sentWords)(loadedPage), loadedPage }
      : { ...card, state: 'done', result: `The page it loaded (${url}) gives this result:\n${loaded.data}`, pageResult: loaded.data, loadedPage };
  const notice = status
    ? pageErrorNotice(tool.name, statusWords(status))
    : byScript
      ? pageOpenedNotice(tool.name, loaded.title)
      : loaded.data === undefined
        ? pageLoadedNotice(tool.name, loaded.title)
        : pageResultNotice(tool.name);
  return {
    ...turn,
    items: turn.items.map((item) => (item === card ? shown : item)),
    ...(turn.outcome === 'navigated' ? { notice } : {}),
  };
}

/** A sent form's card, where the page it loaded gives no result: where it went. */
function sentWords(page: { url: string; title?: string }): string {
  return `The form was sent, and the tab loaded ${pageWords(page)}. That page gives no result of its own: it shows how it went.`;
}

/** A sent form's card, where the page it loaded answered with an error status: what it gave, if anything. */
function refusedWords(page: { url: string; title?: string }, status: number, data: string | undefined): string {
  const said = `The form was sent, but the page it loaded, ${pageWords(page)}, answered with an error (${statusWords(status)}).`;
  return data === undefined ? `${said} That page shows what went wrong.` : `${said} It gives this:\n${data}`;
}

/** The card of a script's tool that loaded a page before it answered: where the tab went. */
function openedWords(page: { url: string; title?: string }): string {
  return `The tab loaded ${pageWords(page)} as the tool ran, so the tool gave no result of its own. That page shows how it went.`;
}

function pageWords({ url, title }: { url: string; title?: string }): string {
  return title ? `"${title}" (${url})` : url;
}
