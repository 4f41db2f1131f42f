// The calls the model got wrong at a step (a tool it was not shown, a call it could not write),
// answered for the model to fix, and the run stopped where it keeps making the same one.
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { countCall, noteCall, type Run } from './agent-run';
import type { PromptFormat } from './formats';
import { argumentlessToolName } from './argumentless-tool-name';
import { parseToolCalls } from './parse-tool-calls';
import { rankScoredTools } from './rank-tools';
import type { ReadStep, StepReplies } from './read-reply';
import { maxIdenticalCalls } from './run-tool-call';
import type { CallReply } from './tool-output-text';
import { unknownToolName } from './unknown-tool-name';

/**
 * The calls the model got wrong (a tool it was not shown, one it could not write) are replied to
 * as they are, for the model to fix; the same one a third time ends the run, as the same call would.
 */
export function replyToUnreadCalls(run: Run, { tools, shownTools, reply, parsed }: ReadStep): StepReplies {
  const { step, emit } = run;
  const replies: CallReply[] = [];
  for (const message of parsed.errors) {
    const name = unknownToolName(message);
    const onPage = name !== undefined && tools.some((tool) => tool.name === name);
    // The same missing tool asked for, or the same unreadable call written, a third time ends
    // the run, as the same call would: more steps would only repeat it.
    const key = name === undefined ? `\u0002${message}` : `\u0001${name}`;
    if (countCall(run, key) + 1 >= maxIdenticalCalls) {
      emit({ type: 'tool-error', step, ...(name === undefined ? {} : { name }), kind: 'repeated', message: repeatedMistake(name, onPage) });
      return { stop: 'repeated-call' };
    }
    noteCall(run, key);
    // A tool the page offers that this step did not show (a follow-up's words rarely name the
    // tool the turn before used) is shown from the next step on, and the model is told so, where
    // it can be; one that cannot is never promised, or the model would only call it again.
    const unshowable = onPage ? whyNotShowable(run, tools, name) : undefined;
    const shown = onPage && unshowable === undefined;
    if (shown) showFromNextStep(run, name);
    const answer = !onPage ? message : unshowable === undefined ? notShownMessage(name) : notShowableMessage(name, unshowable, message);
    // `shownCount` tells the person a tool the page offers was only not shown.
    const notShown = onPage ? { shownCount: shownTools.length } : {};
    // A call whose arguments were no object still names its tool: the person sees which it was.
    const named = name ?? argumentlessToolName(message);
    const details = name === undefined ? { kind: 'parse' as const } : { kind: 'unknown-tool' as const, ...askedArguments(run.options.format, reply.text, name), ...notShown };
    emit({ type: 'tool-error', step, ...(named === undefined ? {} : { name: named }), ...details, message: answer });
    replies.push({ name: 'tool_call', text: answer, isError: true });
  }
  return { replies };
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
function repeatedMistake(name: string | undefined, onPage: boolean): string {
  if (name === undefined) return `The model wrote the same unreadable tool call ${maxIdenticalCalls} times, so the run was stopped.`;
  const offered = onPage ? 'which was not among the tools shown to it' : 'which this page does not offer';
  return `The model asked ${maxIdenticalCalls} times for "${name}", ${offered}, so the run was stopped.`;
}

/**
 * The arguments the model wrote for a tool it was not offered, so the person sees what it asked
 * for: its reply read again as if that tool were offered (a parse error keeps only the name).
 * Only a reply with an unknown tool is read twice. None where the arguments could not be read.
 */
function askedArguments(format: PromptFormat, raw: string, name: string): { arguments?: Record<string, unknown> } {
  const call = (format.parseReply ?? parseToolCalls)(raw, new Set([name])).calls.find((parsed) => parsed.name === name);
  return call ? { arguments: call.arguments } : {};
}
