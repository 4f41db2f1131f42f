// What the model reads again of a tab's conversation: its last exchanges, the site they were made
// on, and whether an answer among them may repeat what strangers wrote.
import type { ChatMessage, ToolDescriptor } from '@webmcp-agents/chat';
import { defaultMaxTools, estimateTokens, systemPromptRoom, type RunLocalAgentResult } from '@webmcp-agents/local-agent';
import { capText } from '../traces/trace-limits';
import type { ActiveRun } from './active-run';
import { assumedContextTokens, fitHistory, fitsHistoryShare } from './fit-history';
import type { StoredConversation } from './session-store';
import type { Turn } from './session-state';
import { answered } from './turn-outcome';
import { unfinishedRequestNote } from './unfinished-request-note';
import { withExchange } from './with-exchange';

/** An answer the model reads again is cut to this: a 1 MB reply must not fill every later prompt. */
const historyAnswerCharacters = 4_000;

/** The history as a stored conversation holds it. */
type StoredHistory = Pick<StoredConversation, 'history' | 'historyOrigin' | 'historyReadUntrusted'>;

/**
 * What the last step of a run read, for `remember`: its prompt (the system prompt first), whether
 * it showed every tool the page offered, the model that read it (engine, model and format), the
 * model's context and the page's tools as the run began.
 */
export interface RunRead {
  prompt: readonly ChatMessage[];
  allToolsShown: boolean;
  reader: string;
  contextTokens: number | undefined;
  tools: readonly ToolDescriptor[] | undefined;
}

/** What a follow-up asks `forRun` with: the page's tools as it begins, its request and its model. */
export interface NextRun {
  tools: readonly ToolDescriptor[] | undefined;
  request: string;
  reader: string;
  /** The most tokens its replies may take, which the prompt keeps room for. */
  replyTokens?: number;
}

/** The history of one tab's conversation. */
export class SessionHistory {
  /** Always replaced, never changed in place: the session store sees a new history by its identity. */
  private messages: ChatMessage[] = [];
  /** The origin `messages` were made on: another site's page never reads them. */
  private madeOn: string | undefined;
  /**
   * An answer in `messages` came from a run that read text strangers wrote: it may repeat their
   * orders, so every later run asks as that run did, until the history starts over. Each later
   * run reads that answer, so its own answer may carry the same words: the mark stays while the
   * conversation goes on, not only while the first answer is among the last exchanges.
   */
  private readUntrusted = false;
  /**
   * The last run, if it answered, as its model last read it (see `asRead`), with its system
   * prompt, the page's tools as it began and the model that read it. A follow-up on the same
   * tools reads it in place of the short history (see `forRun`). Kept in memory only: a worker
   * that stopped has lost what the engine had read anyway.
   */
  private lastRun: { system: string; messages: ChatMessage[]; tools: string; reader: string; requests: number } | undefined;

  /** The site the history was made on, if any. */
  get origin(): string | undefined {
    return this.madeOn;
  }

  stored(): StoredHistory {
    return {
      history: this.messages,
      ...(this.madeOn === undefined ? {} : { historyOrigin: this.madeOn }),
      ...(this.readUntrusted ? { historyReadUntrusted: true } : {}),
    };
  }

  restore(stored: StoredHistory): void {
    this.messages = stored.history;
    this.madeOn = stored.historyOrigin;
    this.readUntrusted = stored.historyReadUntrusted === true;
  }

  /** "New chat": the exchanges go, and their mark with them. */
  clear(): void {
    this.messages = [];
    this.readUntrusted = false;
    this.lastRun = undefined;
  }

  /**
   * A run begins on `origin`; answers whether it reads an answer that may repeat what strangers
   * wrote. What was asked and answered on one site must not reach another site's tools. A page
   * with no known site (a file that reported no tools yet) neither reads the history nor ends it.
   */
  enter(origin: string): boolean {
    if (origin !== '' && origin !== this.madeOn) [this.messages, this.madeOn, this.readUntrusted, this.lastRun] = [[], origin, false, undefined];
    return this.readUntrusted && origin !== '';
  }

  /**
   * What a run on `origin` reads: only what fits the model's context, so a long answer earlier
   * does not crowd out the run. Where the same model reads it, the page still offers the few tools
   * the last run showed it, all of them, and that run as the model last read it fits the history's
   * share and leaves the system prompt its room (so the system prompt is the same), it is read
   * again as it was: an engine that keeps what it read (WebLLM keeps it only for a conversation
   * that goes on exactly as it holds it) then reads only the new request, not the whole prompt
   * again; and the model sees what its tools gave. Else the requests and answers.
   */
  forRun(origin: string, contextTokens: number | undefined, next?: NextRun): { history: ChatMessage[]; requests: number } {
    if (origin === '') return { history: [], requests: 0 };
    const last = this.lastRun;
    const context = contextTokens ?? assumedContextTokens;
    const goesOn =
      last !== undefined &&
      next?.tools !== undefined &&
      last.reader === next.reader &&
      last.tools === wholeToolsKey(next.tools) &&
      fitsHistoryShare(last.messages, context) &&
      estimateTokens(last.system) <= systemPromptRoom(context, next.request, last.messages, next.replyTokens);
    if (goesOn) return { history: last.messages, requests: last.requests };
    // Requests and answers only: each user message is a request.
    const history = fitHistory(this.messages, contextTokens);
    return { history, requests: history.filter((message) => message.role === 'user').length };
  }

  // A request that ended without an answer (stopped, failed, cut off) is closed in the history,
  // so a later prompt never reads it as an order still to carry out; what its tools did is kept.
  // `read`: what its last step read (see `RunRead`), which a follow-up may read again.
  remember(turn: Turn, result: RunLocalAgentResult, active: ActiveRun, read?: RunRead): void {
    // The last run read as it was: the requests it read, and its own (its tool results are user messages too).
    const requests = (turn.requestsRead ?? 0) + 1;
    const reply: ChatMessage = { role: 'assistant', content: answered(result) ? capText(result.text, historyAnswerCharacters) : unfinishedRequestNote(turn) };
    if (!answered(result)) active.note = reply;
    this.messages = withExchange(this.messages, turn.request, reply);
    const asItRead = answered(result) && read ? asRead(read, result) : undefined;
    this.lastRun = asItRead && { ...asItRead, requests };
    // A closed request's words are the extension's own, but for its calls' arguments (and the
    // result a form's page gave, made inert); an answer may carry what the run read.
    if (active.readUntrusted && (answered(result) || turn.items.some((item) => item.kind === 'tool'))) this.readUntrusted = true;
  }

  /**
   * The note that closed `turn`'s request says what the turn shows now (the result the page a
   * form loaded gave), where the history is still of `site`: page text, made inert, which the
   * next prompts read as such (see approvalReason).
   */
  updateNote(note: ChatMessage | undefined, turn: Turn, site: string): void {
    if (!note || this.madeOn !== site) return;
    this.messages = this.messages.map((message) => (message === note ? { ...message, content: unfinishedRequestNote(turn) } : message));
    this.readUntrusted = true;
  }
}

/**
 * The tools of a page, where a run shows them all, in the page's order (no more than it shows at
 * a step): the same key, the same system prompt. A page with more is ranked anew for each request.
 */
function wholeToolsKey(tools: readonly ToolDescriptor[]): string | undefined {
  if (tools.length > defaultMaxTools) return undefined;
  return JSON.stringify(tools);
}

/**
 * The last run as its model holds it: the last prompt but its system prompt, and the answer as
 * the model wrote it; where it showed every tool of a page that offers only a few, and would fit
 * a follow-up's share of the same context.
 */
function asRead(read: RunRead, result: RunLocalAgentResult): { system: string; messages: ChatMessage[]; tools: string; reader: string } | undefined {
  const [system, ...rest] = read.prompt;
  const answer = result.messages.at(-1);
  const tools = read.tools && wholeToolsKey(read.tools);
  if (system?.role !== 'system' || answer?.role !== 'assistant' || !read.allToolsShown || !tools) return undefined;
  const messages = [...rest, answer];
  return fitsHistoryShare(messages, read.contextTokens ?? assumedContextTokens) ? { system: system.content, messages, tools, reader: read.reader } : undefined;
}
