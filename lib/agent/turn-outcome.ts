// How a run's turn ended, in the words its notice is made from, read from what the agent loop answered.
import { parseToolCalls, type PromptFormat, type RunLocalAgentResult } from '@webmcp-agents/local-agent';
import { longerReply, type LongerReply } from '../engines/engine';
import type { Settings } from '../settings';
import { listed } from '../text/listed';
import type { ActiveRun, TabRunHost } from './active-run';
import { changingCallRan } from './changing-call-ran';
import { isEngineFailure } from './is-engine-failure';
import type { ToolCard, Turn, TurnOutcome } from './session-state';
import { errorLeads, thinkingCutOffNotice } from './turn-notices';

/** How the run's last reply ended: as the model wrote it, and in what context (the engine's, where known). */
export interface LastReply {
  text: string;
  /** The model thought apart from that reply (a server's reasoning, which is not in `text`). */
  thoughtApart?: boolean;
  contextTokens: number | undefined;
  /** The tool each of its calls named, where the engine cut it off (see toolsCalledInCutReply). */
  cutCalls?: readonly string[];
}

/**
 * The calls a reply the engine cut off was writing, by the tools they name, as its format reads
 * them (a call cut short is read as far as it goes): none of them ran, which its notice says, as
 * the panel shows them no card.
 */
export function toolsCalledInCutReply(raw: string, shownNames: ReadonlySet<string>, format: PromptFormat): string[] {
  return (format.parseReply ?? parseToolCalls)(raw, shownNames).calls.map((call) => call.name);
}

/** The sentence for a cut reply's calls (a tool's name for each), which did not run. */
function cutCallsSentence(calls: readonly string[] = []): string | undefined {
  if (calls.length === 0) return undefined;
  const quoted = listed([...new Set(calls)].map((name) => `"${name}"`));
  return calls.length === 1 ? `Its call of ${quoted} did not run.` : `Its ${calls.length} calls, of ${quoted}, did not run.`;
}

/**
 * The turn's outcome and its notice. Not only a reading: an engine that failed is reported to the
 * tab's status line here, and the run marked as ended by it.
 */
export function outcomeOf(host: TabRunHost, result: RunLocalAgentResult, active: ActiveRun, settings: Settings, repeated: string | undefined, last: LastReply, turn: Turn): [TurnOutcome, string?] {
  const lastReply = last.text;
  const longer = longerReply(settings.replyTokens, last.contextTokens);
  const stillThinking = thinkingCutOffNotice(result, lastReply, longer);
  if (stillThinking) {
    // A reply that ended mid-thought of itself may answer when asked again: Try again is offered,
    // as it is where the length limit cut it off (to be pressed once that limit is raised).
    if (stillThinking.askAgain) active.noAnswer = true;
    else markCutOff(active, longer);
    return ['error', stillThinking.notice];
  }
  switch (result.finishReason) {
    case 'answer':
      if (!answered(result)) {
        active.noAnswer = true;
        return ['error', `The model gave no answer: ${whyNoAnswer(lastReply, last.thoughtApart === true)}. Ask again, or pick another model in the options.`];
      }
      return ['answer'];
    case 'aborted':
      return [active.stopReason ?? 'stopped', active.stopDetail];
    case 'max-steps':
      return ['max-steps', String(settings.maxSteps)];
    case 'repeated-call':
      return ['repeated-call', repeated];
    case 'error':
      // A failing engine is said on the tab's status line too; a reply that was too long is only this turn's.
      if (!result.error) return ['error'];
      if (isEngineFailure(result.error)) {
        host.world.reportEngineError(host.tabId, result.error.message, result.error.hint, result.error.code);
        active.engineFailed = true;
      }
      // An engine that failed before the turn showed a word or handed the page a call did nothing,
      // as one that failed to load: said as such (the model never started, as far as the person sees).
      // A reply too long (the engine's error about that reply only) says so in its own sentence.
      const replyOnly = result.error.name === 'EngineError' && !isEngineFailure(result.error);
      // A server out of reach, silent, busy or refusing was no error of the model's: the run stopped
      // where it could not go on.
      const lead = replyOnly ? '' : isEngineFailure(result.error) && !showedAnything(turn) ? errorLeads.nothingDone : serverFault(result.error.code, settings) ? errorLeads.runStopped : errorLeads.modelFailed;
      // Sending the request again would make again a call that may have changed the page (the panel
      // offers no Try again then): the hint's own "send your request again" goes, and the page comes first.
      const ran = changingCallRan(turn);
      const hint = ran ? result.error.hint?.replace(sendAgain, '') : result.error.hint;
      const before = ran && `"${ran.name}" ${ran.state === 'done' ? 'ran already' : 'may have run'}: check the page first, and ask only for what is left.`;
      const cutOff = result.error.code === 'reply-cut-off';
      if (cutOff) markCutOff(active, longer);
      const cutCalls = cutOff ? cutCallsSentence(last.cutCalls) : undefined;
      return ['error', [lead, result.error.message, cutCalls, hint, before].filter(Boolean).join(' ')];
  }
}

/**
 * A reply cut off at its length limit: Try again is offered only where "Longest reply" can still
 * be raised. At its highest, or where the model's context set the limit, the same request would be
 * cut off again: the notice asks for something shorter instead.
 */
function markCutOff(active: ActiveRun, longer: LongerReply): void {
  if (longer === 'raise') active.cutOff = true;
}

/**
 * Whether the engine failed as a model's server does, or the way to it (out of reach, silent, busy,
 * refusing), not as the model itself: WebLLM and Chrome's model say `unavailable` of their own
 * failures too.
 */
function serverFault(code: string | undefined, settings: Settings): boolean {
  return code === 'server-down' || (settings.engine === 'openai' && (code === 'server-silent' || code === 'unavailable' || code === 'forbidden'));
}

/** How an engine's hint ends where the remedy is to send the same request again ("Start it, then send your request again."). */
const sendAgain = /,? (?:then|and) send your request again(?=[.;:]|$)/g;

/** Whether a call of the run did something, or was the person's to refuse: not every one unreadable, refused or failed. */
export function anyCallWorked(turn: Turn): boolean {
  const cards = turn.items.filter((item) => item.kind === 'tool');
  // A call whose tool the page changed or took away was the page's doing, not the model's.
  return cards.length === 0 || cards.some((card) => !modelFailures.has(card.state) || card.withdrawn);
}

const modelFailures = new Set<ToolCard['state']>(['failed', 'not-run', 'invalid', 'unknown', 'unreadable']);

/** Whether the turn showed the person a word of the reply, or handed the page a call. */
function showedAnything(turn: Turn): boolean {
  return turn.items.some((item) => (item.kind === 'prose' ? item.text.trim() !== '' : item.sent === true));
}

/** A run that ended with words for the person: a reply with neither a call nor a word (only thoughts, or nothing) is no answer. */
export function answered(result: RunLocalAgentResult): boolean {
  return result.finishReason === 'answer' && result.text.trim() !== '';
}

/** What the last reply held, where it held no answer: thoughts apart from it (`thoughtApart`) are thinking too. */
function whyNoAnswer(lastReply: string, thoughtApart: boolean): string {
  // The empty block a model told not to think starts with (Qwen3 under WebLLM) is no thinking.
  const reply = lastReply.replace(/<think>\s*<\/think>/gi, '');
  if (reply.trim() === '') return thoughtApart ? 'it wrote only its thinking' : 'its reply was empty';
  return /<think>/i.test(reply) ? 'it wrote only its thinking' : 'its reply held nothing to show';
}
