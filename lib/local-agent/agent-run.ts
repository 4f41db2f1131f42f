// A run of the agent loop: what its caller gives it and gets back, what it keeps from one step to
// the next, and how it starts and ends.
import type { ChatMessage, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import type { AgentEvent, FinishReason } from './agent-events';
import { defaultInstructions } from './default-instructions';
import { defaultReplyTokens } from './fit-shown-tools';
import { engineErrorFields, type EngineErrorFields } from './engine-error-fields';
import type { PromptFormat } from './formats';
import type { LanguageModel } from './language-model';
import type { Approval, ApprovalNeed, ToolCallContext, ToolCallHost } from './run-tool-call';
import { RunPrompt } from './run-prompt';
import { defaultToolOutputLimit } from './tool-output-text';
import type { ParsedCall, ToolScorer } from './types';

export interface RunLocalAgentOptions {
  /** The person's request. */
  request: string;
  /** Earlier messages of the conversation (user and assistant turns), oldest first. */
  history?: readonly ChatMessage[];
  /**
   * Tools the conversation called lately (the last request's calls, say), the latest first: the
   * ranking favours them as it does the run's own calls. A follow-up's words ("try WELCOME5
   * instead") rarely name the tool it is about.
   */
  recentTools?: readonly string[];
  model: LanguageModel;
  format: PromptFormat;
  /** The page's tools, read fresh at every step because they change as the page does. */
  getTools(): readonly ToolDescriptor[] | Promise<readonly ToolDescriptor[]>;
  /** Runs a call in the page. Page faults come back as `isError` outputs, not exceptions. */
  executeTool(call: ParsedCall, context: ToolCallContext): Promise<ToolOutput>;
  /** Asks the person before a call; absent, every call runs. */
  approve?(call: ParsedCall, context: ToolCallContext): Promise<Approval>;
  /**
   * Why this call must be approved, or null when it may run at once; `{ withdrawn }` where it may
   * not run at all (its tool changed since the step showed it). Absent, every call is asked.
   */
  needsApproval?(call: ParsedCall, context: ToolCallContext): ApprovalNeed | Promise<ApprovalNeed>;
  onEvent?(event: AgentEvent): void;
  signal?: AbortSignal;
  /** Most model replies in one run. Default 8. */
  maxSteps?: number;
  /** Most tools shown to the model at a step. Default 8. */
  maxTools?: number;
  scorer?: ToolScorer;
  instructions?: string;
  /** Characters of a tool's output the model reads. Default 4,000. */
  toolOutputLimit?: number;
  /**
   * The most tokens a reply may take: the engine is asked to stop there (see ModelRequest), and the
   * prompt keeps room for it, up to half the context, where the engine is asked for no more. Default 1,024.
   */
  replyTokens?: number;
  /**
   * Tokens the model reads at once, where known. The shown tools are those that fit, the best
   * first, beside the request, the history, a reply and some tool results; the run's results are cut
   * to the room each prompt leaves them (the newest first, a short one taking only what it needs,
   * the earlier ones what is left, or a short note where too little is), and the oldest turns of
   * the history, then the oldest steps of the run, give way where the newest results would have
   * too little room. A model that still finds a prompt too long (see LanguageModel) gets it made
   * smaller and sent again.
   */
  contextTokens?: number;
}

export interface RunLocalAgentResult {
  finishReason: FinishReason;
  /** The prose of the last reply. */
  text: string;
  steps: number;
  /** The messages this run added to the conversation: the request, replies and tool results. */
  messages: ChatMessage[];
  error?: RunError;
}

/** An engine failure as it crosses contexts, with what the engine said of it beyond its message. */
export interface RunError extends EngineErrorFields {
  name: string;
  message: string;
}

/** What a run keeps from one step to the next. */
export interface Run {
  readonly options: RunLocalAgentOptions;
  readonly maxSteps: number;
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
  /** The page and the person, as each call reaches them. */
  readonly host: ToolCallHost;
  readonly prompt: RunPrompt;
  /** The tools the model called, the latest first: the ranking favours them. */
  readonly recent: string[];
  /**
   * The page's tools the model asked for at a step that did not show them: shown at every later
   * step (see offerTools), as the model was told.
   */
  readonly askedFor: Set<string>;
  /** The request's words as a tool's name would be written among them (see toolsNamedIn), read once. */
  readonly requestWords: ReadonlySet<string>;
  /** Each call's steps and answers, the latest last (see countCall). */
  readonly callSteps: Map<string, CallMade[]>;
  /** The calls (name and arguments) the person declined in this run: never asked about again. */
  readonly declined: Set<string>;
  /** The prose of the last reply. */
  text: string;
  step: number;
}

export function startRun(options: RunLocalAgentOptions): Run {
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const prompt = new RunPrompt({
    format: options.format,
    request: options.request,
    instructions: options.instructions ?? defaultInstructions,
    history: options.history ?? [],
    toolOutputLimit: options.toolOutputLimit ?? defaultToolOutputLimit,
    contextTokens: options.contextTokens,
    replyTokens: options.replyTokens ?? defaultReplyTokens,
    emit,
  });
  const { maxSteps = 8 } = options;
  return {
    options,
    maxSteps,
    signal: options.signal ?? new AbortController().signal,
    emit,
    host: { executeTool: options.executeTool, approve: options.approve, needsApproval: options.needsApproval, emit },
    prompt,
    recent: [...(options.recentTools ?? [])],
    askedFor: new Set(),
    requestWords: new Set(options.request.match(/[A-Za-z0-9_.-]+/g)?.map((word) => word.replace(/^[.-]+|[.-]+$/g, '')) ?? []),
    callSteps: new Map(),
    declined: new Set(),
    text: '',
    step: 0,
  };
}

/** The run ends here, whatever the reason: the listener hears it as the caller does. */
export function finish(run: Run, finishReason: FinishReason, error?: RunError): RunLocalAgentResult {
  const { text, step } = run;
  run.emit({ type: 'finish', reason: finishReason, text, steps: step, ...(error ? { error } : {}) });
  return { finishReason, text, steps: step, messages: run.prompt.messages, ...(error ? { error } : {}) };
}

/** A call made at a step, with the text it answered; none where it did not run (see countCall). */
export interface CallMade {
  step: number;
  answer?: string;
}

/**
 * How many times in a row a call (its name and arguments, a missing tool's name, or what could not
 * be read of it) was made before with the same answer, in the steps the prompt still shows. A
 * changed answer means the page changed between (`get_cart`, `remove_item`, `get_cart`), so only
 * the same call answered the same is a loop. A step given up is one the model can no longer see,
 * so making its call again is no loop.
 */
export function countCall(run: Run, key: string): number {
  const shown = (run.callSteps.get(key) ?? []).filter((made) => made.step >= run.prompt.firstShownStep);
  run.callSteps.set(key, shown);
  const last = shown.at(-1);
  const changed = shown.findLastIndex((made) => made.answer !== last?.answer);
  return shown.length - 1 - changed;
}

/** Notes a call made at this step and its answer: the text of its output, none where it did not run. */
export function noteCall(run: Run, key: string, answer?: string): void {
  run.callSteps.set(key, [...(run.callSteps.get(key) ?? []), { step: run.step, answer }]);
}

export function toRunError(error: unknown): RunError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  return { name: error.name, message: error.message, ...engineErrorFields(error) };
}
