import { inertMarkup } from '@webmcp-agents/local-agent';
import { traceAddress } from '../traces/trace-address';
import { capText } from '../traces/trace-limits';
import { statusWords } from '../webmcp/read-page-result';
import type { ToolCard, Turn } from './session-state';

/**
 * What the history keeps of a request that ended without an answer (stopped, timed out, cut off):
 * that it ended, and what its tools did, so that a later "did that work?" is answered from what
 * happened and nothing done is done again, yet the request is never read as an order still to do.
 */
export function unfinishedRequestNote(turn: Turn): string {
  const calls = turn.items.flatMap((item) => {
    if (item.kind !== 'tool') return [];
    // A call still being checked never reached the page: like a call not run, it is left out.
    const outcome = item.state === 'running' && !item.sent ? undefined : loadedPageOutcome(item) ?? callOutcomes[item.state];
    return outcome ? [`${item.name} ${capText(argumentsText(item), argumentCharacters)}: ${outcome}${loadedPageWords(item)}`] : [];
  });
  const did = calls.length > 0 ? ` Its tool calls: ${calls.join('; ')}.` : '';
  return `(This request ended before it was finished.${did} Do not carry it on unless the person asks again.)`;
}

/** How each call went, in words; calls that never ran (refused arguments, no answer to the question) are left out. */
const callOutcomes: Partial<Record<ToolCard['state'], string>> = {
  done: 'done',
  failed: 'failed',
  running: 'no answer came, it may have done its work',
  unanswered: 'no answer came, it may have done its work',
  declined: 'the person declined it',
};

/**
 * How a call that loaded a page went: a form was sent; a script's tool gave no answer, and may have
 * done its work (placed an order, then opened its confirmation), which must not be done again.
 */
function loadedPageOutcome(card: ToolCard): string | undefined {
  if (card.loadedPage?.status) return `the form was sent, but the page it loaded answered with an error (${statusWords(card.loadedPage.status)})`;
  if (!card.loadedPage || card.pageResult !== undefined) return undefined;
  return card.loadedPage.byScript ? callOutcomes.unanswered : 'sent';
}

/**
 * What the page a call loaded said: a form's result, or else its title, and for a script's tool
 * its address as a trace keeps it (`traceAddress`: not its query or fragment, which may hold what
 * the person searched or a token, and are no business of the model's). The page's own words, made inert and
 * quoted as JSON strings (their quotes and line breaks escaped): they can neither close this note
 * nor write turns after it, nor pass for a call.
 */
function loadedPageWords(card: ToolCard): string {
  if (card.pageResult !== undefined) {
    return `, and the page it loaded gave this result (the page's data, as a JSON string): ${quoted(capText(card.pageResult, pageResultCharacters))}`;
  }
  const page = card.loadedPage;
  if (page?.byScript) {
    const at = `, and the tab loaded the page at (as a JSON string) ${quoted(capText(traceAddress(page.url), pathCharacters))}`;
    return page.title ? `${at}, titled (the page's words, as a JSON string) ${quoted(page.title)}` : at;
  }
  return page?.title ? `, and the tab loaded a page titled (the page's words, as a JSON string): ${quoted(page.title)}` : '';
}

function quoted(pageWords: string): string {
  return JSON.stringify(inertMarkup(pageWords));
}

const argumentCharacters = 200;
/** A loaded page's address, as far as later prompts read it. */
const pathCharacters = 200;
/** A result page's data, as far as later prompts read it again. */
const pageResultCharacters = 1_000;

function argumentsText(card: ToolCard): string {
  try {
    return JSON.stringify(card.arguments) ?? '{}';
  } catch {
    return '{}';
  }
}
