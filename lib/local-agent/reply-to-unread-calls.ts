// The calls the model got wrong at a step (a tool it was not shown, a call it could not write),
// answered for the model to fix, and the run stopped where it keeps making the same one.
import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { FinishReason } from './agent-events';
import { countCall, noteCall, type Run } from './agent-run';
import { argumentlessToolName } from './argumentless-tool-name';
import { codeCallName } from './calls-written-as-code';
import type { UnreadCall } from './calls-in-written-order';
import { rankScoredTools } from './rank-tools';
import type { ReadStep } from './read-reply';
import type { CallAnswer } from './run-calls';
import { maxIdenticalCalls } from './run-tool-call';
import { unknownToolName } from './unknown-tool-name';

/** A call the model got wrong: its parse error, the missing tool it names, and whether the page has that tool. */
interface Mistake {
  message: string;
  name: string | undefined;
  onPage: boolean;
}

/**
 * Answers the calls the model got wrong (a tool it was not shown, one it could not write), each
 * where it wrote it (see callsInWrittenOrder), for the model to fix; the same one a third time
 * ends the run, as the same call would. The parse gives one message for all copies of a mistake
 * (the same missing tool, the same unreadable call): the first copy counts, as a call written
 * twice in one reply counts once (see runCalls), and each later one is answered the same in its
 * own place.
 */
export function unreadCallReplier(run: Run, step: ReadStep): (written: UnreadCall) => CallAnswer {
  const answers = new Map<number, string>();
  return ({ errorAt, arguments: asked }) => {
    const message = step.parsed.errors[errorAt]!;
    const name = unknownToolName(message);
    const mistake = { message, name, onPage: name !== undefined && step.tools.some((tool) => tool.name === name) };
    const answer = answers.get(errorAt) ?? answerMistake(run, step.tools, mistake, asked);
    if (typeof answer !== 'string') return answer;
    answers.set(errorAt, answer);
    showMistake(run, step, mistake, answer, asked);
    return { reply: { name: 'tool_call', text: answer, isError: true } };
  };
}

/**
 * What the model reads of a call it got wrong, the call noted toward the repeated-mistake stop; or
 * that stop, told with what the model asked of a missing tool that last time (`asked`).
 */
function answerMistake(run: Run, tools: readonly ToolDescriptor[], { message, name, onPage }: Mistake, asked?: Record<string, unknown>): string | { stop: FinishReason } {
  // The same missing tool asked for, or the same unreadable call written, a third time ends
  // the run, as the same call would: more steps would only repeat it.
  const key = name === undefined ? `\u0002${message}` : `\u0001${name}`;
  if (countCall(run, key) + 1 >= maxIdenticalCalls) {
    const missing = name === undefined ? {} : { name, ...(asked ? { arguments: asked } : {}) };
    run.emit({ type: 'tool-error', step: run.step, ...missing, kind: 'repeated', message: repeatedMistake(name, onPage, message) });
    return { stop: 'repeated-call' };
  }
  noteCall(run, key);
  if (name === undefined || !onPage) return message;
  // A tool the page offers that this step did not show (a follow-up's words rarely name the
  // tool the turn before used) is shown from the next step on, and the model is told so, where
  // it can be; one that cannot is never promised, or the model would only call it again.
  const unshowable = whyNotShowable(run, tools, name);
  if (unshowable !== undefined) return notShowableMessage(name, unshowable, message);
  showFromNextStep(run, name);
  return notShownMessage(name);
}

/**
 * The person's card for a call the model got wrong: what it asked of which tool, where that could
 * be read, and (`shownCount`) that a tool the page offers was only not shown.
 */
function showMistake(run: Run, { shownTools }: ReadStep, { message, name, onPage }: Mistake, answer: string, asked?: Record<string, unknown>): void {
  const notShown = onPage ? { shownCount: shownTools.length } : {};
  // A call whose arguments were no object, or written as code, still names its tool: the person sees which it was.
  const named = name ?? argumentlessToolName(message) ?? codeCallName(message);
  const details = name === undefined ? { kind: 'parse' as const } : { kind: 'unknown-tool' as const, ...(asked ? { arguments: asked } : {}), ...notShown };
  run.emit({ type: 'tool-error', step: run.step, ...(named === undefined ? {} : { name: named }), ...details, message: answer });
}

/** The model asked for a tool the page offers but this step did not show: it is shown at the next. */
function showFromNextStep(run: Run, name: string): void {
  run.askedFor.add(name);
  run.recent.unshift(name);
}

/**
 * Why the tool `name`, with those the model asked for before, would not be shown from the next step
 * on (none where it would): asked tools are fitted first, so they are where they all fit the
 * step's slots and the context's room for tools. Answers 'room' where the tool alone is too large
 * for that room, 'taken' where the tools asked for before leave it no slot or no room.
 */
function whyNotShowable(run: Run, tools: readonly ToolDescriptor[], name: string): 'taken' | 'room' | undefined {
  const names = new Set([...run.askedFor, name]);
  const asked = tools.filter((tool) => names.has(tool.name));
  const ranked = rankScoredTools(asked, asked.map(() => 0), run.options.maxTools);
  if (ranked.length === asked.length && run.prompt.fitsTools(ranked)) return undefined;
  const alone = tools.filter((tool) => tool.name === name);
  return run.prompt.fitsTools(rankScoredTools(alone, [0])) ? 'taken' : 'room';
}

/** What the model reads of its call to a tool the page offers that cannot be shown to it. */
function notShowableMessage(name: string, why: 'taken' | 'room', unknownMessage: string): string {
  const reason = why === 'room' ? "it is too large to be shown with this model's context" : 'a step shows only so many tools, and those you asked for before take their places';
  const available = unknownMessage.slice(unknownMessage.indexOf('Available now: '));
  return `"${name}" was not among your tools at this step, so it did not run: ${reason}. ${available}`;
}

/** What the model reads of its call to a tool the page offers but this step did not show. */
function notShownMessage(name: string): string {
  return `"${name}" was not among your tools at this step, so it did not run. It is among them now: call it again if the request needs it.`;
}

/** Why the run stopped at the same missing tool, or the same unreadable call, a third time. */
function repeatedMistake(name: string | undefined, onPage: boolean, message: string): string {
  const asCode = codeCallName(message);
  if (asCode !== undefined) return `The model wrote the same call to "${asCode}" as code, not as a tool call, ${maxIdenticalCalls} times, so the run was stopped.`;
  if (name === undefined) return `The model wrote the same unreadable tool call ${maxIdenticalCalls} times, so the run was stopped.`;
  const offered = onPage ? 'which was not among the tools shown to it' : 'which this page does not offer';
  return `The model asked ${maxIdenticalCalls} times for "${name}", ${offered}, so the run was stopped.`;
}
