// A form that posts ends the run by loading a page, which may give the form's result (its JSON-LD,
// as WebMCP's declarative explainer proposes): the card of the call that loaded it shows it. A page
// that gives none still says the form was sent, and where it went.
import type { PageResult } from '../webmcp/read-page-result';
import type { ToolCard, Turn } from './session-state';
import { pageLoadedNotice, pageResultNotice } from './turn-notices';

/**
 * `turn` with the card of `tool`'s call showing the page it loaded and what that page gives, and
 * its notice saying so where the page ended the turn; undefined where the turn has no such card, or
 * that call did not navigate.
 */
export function withLoadedPageResult(turn: Turn, tool: { name: string; callId: string }, loaded: PageResult): Turn | undefined {
  const card = turn.items.find((item): item is ToolCard => item.kind === 'tool' && item.callId === tool.callId);
  // Only the call that navigated: one that failed, or answered otherwise, keeps what it said.
  if (card?.state !== 'unanswered') return undefined;
  const loadedPage = { url: loaded.url, ...(loaded.title ? { title: loaded.title } : {}) };
  const shown: ToolCard =
    loaded.data === undefined
      ? { ...card, state: 'done', result: sentWords(loadedPage), loadedPage }
      : { ...card, state: 'done', result: `The page it loaded (${loaded.url}) gives this result:\n${loaded.data}`, pageResult: loaded.data, loadedPage };
  return {
    ...turn,
    items: turn.items.map((item) => (item === card ? shown : item)),
    ...(turn.outcome === 'navigated' ? { notice: loaded.data === undefined ? pageLoadedNotice(tool.name, loaded.title) : pageResultNotice(tool.name) } : {}),
  };
}

/** A sent form's card, where the page it loaded gives no result: where it went. */
function sentWords({ url, title }: { url: string; title?: string }): string {
  const page = title ? `"${title}" (${url})` : url;
  return `The form was sent, and the tab loaded ${page}. That page gives no result of its own: it shows how it went.`;
}
