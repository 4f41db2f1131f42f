// A form that posts ends the run by loading a page, which may give the form's result (its JSON-LD,
// as WebMCP's declarative explainer proposes): the card of the call that loaded it shows it.
import type { PageResult } from '../webmcp/read-page-result';
import type { ToolCard, Turn } from './session-state';
import { pageResultNotice } from './turn-notices';

/**
 * `turn` with the card of `tool`'s call showing what the loaded page gives, and its notice saying
 * so where the page ended the turn; undefined where the turn has no such card, or that call did
 * not navigate.
 */
export function withLoadedPageResult(turn: Turn, tool: { name: string; callId: string }, loaded: PageResult): Turn | undefined {
  const card = turn.items.find((item): item is ToolCard => item.kind === 'tool' && item.callId === tool.callId);
  // Only the call that navigated: one that failed, or answered otherwise, keeps what it said.
  if (card?.state !== 'unanswered') return undefined;
  const shown: ToolCard = { ...card, state: 'done', result: `The page it loaded (${loaded.url}) gives this result:\n${loaded.data}`, pageResult: loaded.data };
  return {
    ...turn,
    items: turn.items.map((item) => (item === card ? shown : item)),
    ...(turn.outcome === 'navigated' ? { notice: pageResultNotice(tool.name) } : {}),
  };
}
