import type { RunLocalAgentResult } from '@webmcp-agents/local-agent';
import { thinkingCutOff, type LongerReply } from '../engines/engine';
import { plural } from '../text/plural';
import { siteLabel } from '../text/site-label';
import type { TurnOutcome } from './session-state';

/** What the person reads under a turn that did not simply end with an answer. */
export function noticeFor(outcome: TurnOutcome, detail?: string): string | undefined {
  switch (outcome) {
    case 'answer':
      return undefined;
    case 'stopped':
      // `detail` says why, where the person stopped it otherwise than with Stop (the agent turned off).
      return detail ?? 'Stopped.';
    case 'interrupted':
      // `detail` names a call that may have changed the page: asked again, the model could make it again.
      return detail
        ? `This run was cut off when the extension restarted, after a call to "${detail}", which may change the page. Check the page before asking again.`
        : 'This run was cut off when the extension restarted. Ask again to continue.';
    case 'max-steps':
      return `Stopped after ${stepsTaken(detail)} without finishing. Ask again, or raise "Maximum steps per request" in the options.`;
    case 'repeated-call':
      // `detail` is the loop's own sentence: which call, or which missing tool, came again.
      return `${detail ?? 'Stopped: the model kept making the same call.'} Try rephrasing the request.`;
    case 'tool-timeout':
      return `Stopped: ${detail ?? 'a tool did not answer in time'}. ${slowToolRemedy}`;
    case 'no-answer':
      return `Stopped: ${detail ?? 'nobody answered whether to run a call in time'}.`;
    case 'navigated':
      // `detail` names a tool that ran just before, or still ran, where the browser did not say the
      // person brought the new page (see navigationByPerson): that tool may be what loaded it, or
      // the page's own script may have; the words blame neither.
      return detail
        ? `A new page loaded in the tab during or just after "${detail}", so the run ended here. Check the page before asking again.`
        : 'Stopped: the page reloaded, went to another page or was closed. Ask again once the page has loaded.';
    case 'error':
      return detail ?? 'Something went wrong.';
  }
}

/** A tool cut off at the time limit may only be slow (a page that asks its server, a big search). */
const slowToolRemedy = 'If the page is only slow, raise "Seconds a tool may take before the run stops" in the options.';

/**
 * A run that spent every step without one tool call that worked (each unreadable, refused or
 * failed): more steps would not help, other words or another model might.
 */
export function noCallWorkedNotice(steps?: string): string {
  return `Stopped after ${stepsTaken(steps)}: none of the model's tool calls worked. Try rephrasing the request, or pick another model in the options.`;
}

/** "1 step", "8 steps": the step limit the run reached (`limit`, a number in words), where known. */
function stepsTaken(limit: string | undefined): string {
  return limit === undefined ? 'the maximum number of steps' : plural(Number(limit), 'step');
}

/** A run that a form's new page ended, where that page gave no result of its own: the form was sent. */
export function pageLoadedNotice(toolName: string, title: string | undefined): string {
  const page = title ? `a new page, "${title}"` : 'a new page';
  return `"${toolName}" sent its form and the tab loaded ${page}, so the run ended here. The page shows how it went.`;
}

/** A run that ended as a form's post loaded a page that answered with an error status. */
export function pageErrorNotice(toolName: string, status: string): string {
  return `"${toolName}" sent its form, but the page the tab loaded answered with an error (${status}), so the run ended here. The page shows what went wrong.`;
}

/** A run that ended as a script's tool loaded a new page: it may have been the tool's work, or the person's. */
export function pageOpenedNotice(toolName: string, title: string | undefined): string {
  const page = title ? `A new page, "${title}",` : 'A new page';
  return `${page} loaded in the tab as "${toolName}" ran, so the run ended here. The page shows how it went.`;
}

/** A run that a form's new page ended, where that page gave the form's result. */
export function pageResultNotice(toolName: string): string {
  return `The page loaded a new document after "${toolName}" ran, so the run ended here. The result that page gives is shown with the call.`;
}

/**
 * The notice for a run whose last reply stopped inside its reasoning (a `<think>` it never closed)
 * without an answer. Where the engine said it cut the reply off there, or cut it off while the
 * model thought apart from its reply (`thinking-cut-off`), the model used up its reply length
 * thinking: asking for something shorter would not help. A longer reply limit ("Longest reply")
 * may; the extension already asks the models it knows not to think, so the other ways out are
 * another model, or thinking turned off where the model runs (`longer`: whether a longer limit is
 * there to set). A reply that ended there of itself (the model ended its turn mid-thought) may well
 * answer when asked again: `askAgain`.
 */
export function thinkingCutOffNotice(
  result: Pick<RunLocalAgentResult, 'finishReason' | 'text' | 'error'>,
  lastReply: string,
  longer: LongerReply = 'raise',
): { notice: string; askAgain: boolean } | undefined {
  const cutOff = result.error?.code === 'reply-cut-off';
  const endedOfItself = result.finishReason === 'answer' && result.text.trim() === '';
  const thoughtApart = result.error?.code === 'thinking-cut-off';
  if (!thoughtApart && (!(cutOff || endedOfItself) || !stillThinking(lastReply))) return undefined;
  if (!thoughtApart && !cutOff) {
    return {
      notice: 'The model stopped while it was still thinking, so it gave no answer. Ask again; if it happens again, pick a model in the options that does not think first (or turn thinking off on the server that runs it).',
      askAgain: true,
    };
  }
  const { message, hint } = thinkingCutOff(longer);
  return { notice: `${message} ${hint}`, askAgain: false };
}

/** Whether a reply ends inside its reasoning: its last `<think>` is never closed. */
function stillThinking(reply: string): boolean {
  const opened = reply.lastIndexOf('<think>');
  return opened !== -1 && !reply.includes('</think>', opened);
}

/** Why a run stopped, or could not start, on a site where the person turned the agent off. */
export function agentOffNotice(origin: string): string {
  return `The agent is off on ${siteLabel(origin)}. Turn it back on in the side panel or the extension's options.`;
}

/**
 * How a failed request's notice begins, before the engine's own words: nothing was done (the
 * engine failed before the turn showed anything), the run stopped where a server could not go on,
 * or the model stopped with an error. The panel sets it apart, as a banner's title.
 */
export const errorLeads = { nothingDone: 'Nothing was done.', runStopped: 'The run stopped:', modelFailed: 'The model stopped with an error:' } as const;

/** The lead a notice begins with (see `errorLeads`), and the rest; no lead where it has none. */
export function splitErrorLead(notice: string): { lead?: string; rest: string } {
  const lead = Object.values(errorLeads).find((candidate) => notice.startsWith(`${candidate} `));
  return lead ? { lead, rest: notice.slice(lead.length) } : { rest: notice };
}
