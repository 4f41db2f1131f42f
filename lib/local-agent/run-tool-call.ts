import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { isAbortError, raceAbort } from './abortable';
import type { AgentEvent } from './agent-events';
import type { ToolReply } from './formats';
import type { CompactTool, ParsedCall } from './types';
import { validateArgs } from './validate-args';

export interface ToolCallContext {
  callId: string;
  tool: ToolDescriptor;
  signal: AbortSignal;
}

/** What the loop needs to run one call; the host supplies the world (the page, the person). */
export interface ToolCallHost {
  executeTool(call: ParsedCall, context: ToolCallContext): Promise<ToolOutput>;
  approve?(call: ParsedCall, context: ToolCallContext): Promise<Approval>;
  needsApproval?(call: ParsedCall, context: ToolCallContext): ApprovalNeed | Promise<ApprovalNeed>;
  emit(event: AgentEvent): void;
}

/**
 * The tool is no longer what the model was shown (the page took it away, or changed it), so the
 * call does not run: `withdrawn` says why, to the model and on the call's card.
 */
export interface ToolWithdrawn {
  withdrawn: string;
}

/**
 * Nobody answered, but the call may run now: the question no longer stands (the person allowed the
 * site meanwhile, in another tab, say). `allowed` says why, on the call's card and in its trace.
 */
export interface ToolAllowedMeanwhile {
  allowed: string;
}

/** The person's answer to a call: yes or no, or none because the question no longer stands. */
export type Approval = boolean | ToolWithdrawn | ToolAllowedMeanwhile;

/** Why a call must be approved first, null where it may run at once, or why it may not run at all. */
export type ApprovalNeed = string | null | ToolWithdrawn;

/**
 * The third time the model makes the very same call, answered the same the two times before (see
 * countCall), the call does not run and the run stops.
 */
export const maxIdenticalCalls = 3;

/**
 * A reply the model reads as it is (a mistake to fix; `declined` where the person said no;
 * `withdrawn` where the page changed or removed the tool before the call ran, which the model is
 * told to call again where the request still needs it: no call of the model's that goes round in
 * circles), the output of a call that ran, or the end of the run.
 */
export type CallOutcome = { reply: ToolReply; declined?: true; withdrawn?: true } | { output: ToolOutput } | { stop: 'repeated-call'; message: string };

/**
 * Checks one parsed call and runs it. A model's mistake (bad arguments, a declined call) becomes a
 * reply it can act on, and the same call made a third time stops the run; only an abort escapes as
 * an error. `declinedBefore`: the person declined this very call (name and arguments) earlier in
 * the run, so it is refused without asking them again. `earlierInReply`: the model wrote this very
 * call before in the same reply, so it is not run (nor asked about) a second time.
 */
export async function runToolCall(
  call: ParsedCall,
  shown: CompactTool,
  tool: ToolDescriptor,
  context: { step: number; callId: string; signal: AbortSignal; timesCalled: number; declinedBefore: boolean; earlierInReply: boolean },
  host: ToolCallHost,
): Promise<CallOutcome> {
  const { step, callId, signal } = context;
  const { name } = call;
  host.emit({ type: 'tool-call', step, callId, name, arguments: call.arguments });

  // A small model often writes the same call twice in a row: adding one mug twice would put two
  // in the cart. The first stands for both; the model hears why the second did not run.
  if (context.earlierInReply) {
    host.emit({ type: 'tool-error', step, callId, name, kind: 'duplicate', message: 'The same call as the one above, in the same reply.' });
    return { reply: { name, text: `You wrote this same call to ${name} twice in one reply, so it was not run again: the answer above is its answer.` } };
  }
  const problem = validateArgs(shown.parameters, call.arguments);
  // Checked before the arguments: a model that keeps writing the same invalid call is stuck too.
  if (context.timesCalled + 1 >= maxIdenticalCalls) {
    const message = `The model called ${name} with the same ${problem ? 'invalid arguments' : 'arguments'} ${maxIdenticalCalls} times, so the run was stopped.`;
    host.emit({ type: 'tool-error', step, callId, name, kind: 'repeated', message });
    return { stop: 'repeated-call', message };
  }
  if (problem) {
    host.emit({ type: 'tool-error', step, callId, name, kind: 'invalid-arguments', message: problem });
    return { reply: { name, text: `${problem} Fix the arguments and call ${name} again.`, isError: true } };
  }
  // The person said no to this very call earlier in the run: their answer stands, unasked.
  if (context.declinedBefore) {
    const message = `The user already declined this call to ${name}, so they were not asked again. Do not call it again unless they ask.`;
    host.emit({ type: 'tool-error', step, callId, name, kind: 'declined', message });
    return { reply: { name, text: message, isError: true }, declined: true };
  }

  const callContext: ToolCallContext = { callId, tool, signal };
  // Without needsApproval, every call is asked; with it, only those it gives a reason for.
  const reason = !host.approve ? null : host.needsApproval ? await raceAbort(Promise.resolve(host.needsApproval(call, callContext)), signal) : 'asked';
  if (typeof reason === 'object' && reason !== null) return withdrawn(step, callId, name, reason, host);
  if (host.approve && reason !== null) {
    host.emit({ type: 'tool-approval-request', step, callId, name, reason });
    const answer = await raceAbort(host.approve(call, callContext), signal);
    if (typeof answer === 'object' && 'withdrawn' in answer) {
      host.emit({ type: 'tool-approval-response', step, callId, approved: false, withdrawn: true });
      return withdrawn(step, callId, name, answer, host);
    }
    const approved = answer !== false;
    host.emit({ type: 'tool-approval-response', step, callId, approved, ...(typeof answer === 'object' ? { allowedBecause: answer.allowed } : {}) });
    if (!approved) {
      const message = `The user declined the call to ${name}. Do not call it again unless they ask.`;
      host.emit({ type: 'tool-error', step, callId, name, kind: 'declined', message });
      return { reply: { name, text: message, isError: true }, declined: true };
    }
  }

  const started = performance.now();
  const output = await executeSafely(call, callContext, host);
  host.emit({ type: 'tool-result', step, callId, name, output, durationMs: performance.now() - started });
  return { output };
}

/** A call whose tool went, or changed, before it ran: not a mistake of the model's, nor declined. */
function withdrawn(step: number, callId: string, name: string, { withdrawn: message }: ToolWithdrawn, host: ToolCallHost): CallOutcome {
  host.emit({ type: 'tool-error', step, callId, name, kind: 'unknown-tool', message, withdrawn: true });
  return { reply: { name, text: message, isError: true }, withdrawn: true };
}

async function executeSafely(call: ParsedCall, context: ToolCallContext, host: ToolCallHost): Promise<ToolOutput> {
  try {
    return await raceAbort(host.executeTool(call, context), context.signal);
  } catch (error) {
    if (isAbortError(error) || context.signal.aborted) throw error;
    // A host should turn page faults into outputs; if one slips through, the model still hears of it.
    return { text: `The tool failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
  }
}
