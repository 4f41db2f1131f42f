import type { ChatMessage, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { isAbortError } from './abortable';
import type { AgentEvent, FinishReason, ShownTool } from './agent-events';
import { defaultInstructions } from './default-instructions';
import type { PromptFormat } from './formats';
import type { LanguageModel } from './language-model';
import { parseToolCalls } from './parse-tool-calls';
import { rankScoredTools, scoreTools } from './rank-tools';
import { maxIdenticalCalls, runToolCall, type ToolCallContext, type ToolCallHost } from './run-tool-call';
import { isEmptyFence } from './fenced-call-holder';
import { canonicalJson } from './json-values';
import { settleProse } from './settle-prose';
import { messagesTokens, RunPrompt, type StepPrompt } from './run-prompt';
import { streamReply, type StreamedReply } from './stream-reply';
import { defaultToolOutputLimit, type CallReply } from './tool-output-text';
import { toolsNotShown } from './tools-not-shown';
import type { CompactTool, ParsedCall, ParseResult, ToolScorer } from './types';

export interface RunLocalAgentOptions {
  /** The person's request. */
  request: string;
  /** Earlier messages of the conversation (user and assistant turns), oldest first. */
  history?: readonly ChatMessage[];
  model: LanguageModel;
  format: PromptFormat;
  /** The page's tools, read fresh at every step because they change as the page does. */
  getTools(): readonly ToolDescriptor[] | Promise<readonly ToolDescriptor[]>;
  /** Runs a call in the page. Page faults come back as `isError` outputs, not exceptions. */
  executeTool(call: ParsedCall, context: ToolCallContext): Promise<ToolOutput>;
  /** Asks the person before a call; absent, every call runs. */
  approve?(call: ParsedCall, context: ToolCallContext): Promise<boolean>;
  /** Why this call must be approved, or null when it may run at once. Absent, every call is asked. */
  needsApproval?(call: ParsedCall, context: ToolCallContext): string | null | Promise<string | null>;
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

/** An engine failure as it crosses contexts; `hint` is what the person can do, when the engine said. */
export interface RunError {
  name: string;
  message: string;
  hint?: string;
  /** The engine's code for what went wrong, when it gave one. */
  code?: string;
}

/** The most tools shown to the model at a step, unless `maxTools` says otherwise. */
export const defaultMaxTools = 8;

/**
 * The agent loop: rank the page's tools, prompt, stream the reply, parse its calls, check and run
 * them, and feed results or errors back, until the model answers without a call or a limit hits.
 */
export async function runLocalAgent(options: RunLocalAgentOptions): Promise<RunLocalAgentResult> {
  const run = startRun(options);
  try {
    while (run.step < run.maxSteps) {
      if (run.signal.aborted) return finish(run, 'aborted');
      run.step += 1;
      const tools = await options.getTools();
      // Stopped while the tools were read: the model is not asked.
      if (run.signal.aborted) return finish(run, 'aborted');
      const answer = await askModel(run, offerTools(run, tools));
      const step = readReply(run, tools, answer);
      // A reply without a call, nor one it got wrong, is the model's answer.
      if (step.parsed.calls.length === 0 && step.parsed.errors.length === 0) return finish(run, 'answer');
      const unread = replyToUnreadCalls(run, step);
      if ('stop' in unread) return finish(run, unread.stop);
      const ran = await runCalls(run, step);
      if ('stop' in ran) return finish(run, ran.stop);
      // The model reads the replies to the calls it got wrong, then the outputs of those that ran.
      run.prompt.addResults(run.step, [...unread.replies, ...ran.replies]);
    }
    return finish(run, 'max-steps');
  } catch (error) {
    if (isAbortError(error) || run.signal.aborted) return finish(run, 'aborted');
    return finish(run, 'error', toRunError(error));
  }
}

/** What a run keeps from one step to the next. */
interface Run {
  readonly options: RunLocalAgentOptions;
  readonly maxSteps: number;
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
  /** The page and the person, as each call reaches them. */
  readonly host: ToolCallHost;
  readonly prompt: RunPrompt;
  /** The tools the model called, the latest first: the ranking favours them. */
  readonly recent: string[];
  /** The steps each call was made in (see countCall). */
  readonly callSteps: Map<string, number[]>;
  /** The calls (name and arguments) the person declined in this run: never asked about again. */
  readonly declined: Set<string>;
  /** The prose of the last reply. */
  text: string;
  step: number;
}

function startRun(options: RunLocalAgentOptions): Run {
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const prompt = new RunPrompt({
    format: options.format,
    request: options.request,
    instructions: options.instructions ?? defaultInstructions,
    history: options.history ?? [],
    toolOutputLimit: options.toolOutputLimit ?? defaultToolOutputLimit,
    contextTokens: options.contextTokens,
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
    recent: [],
    callSteps: new Map(),
    declined: new Set(),
    text: '',
    step: 0,
  };
}

/** The run ends here, whatever the reason: the listener hears it as the caller does. */
function finish(run: Run, finishReason: FinishReason, error?: RunError): RunLocalAgentResult {
  const { text, step } = run;
  run.emit({ type: 'finish', reason: finishReason, text, steps: step, ...(error ? { error } : {}) });
  return { finishReason, text, steps: step, messages: run.prompt.messages, ...(error ? { error } : {}) };
}

/** The page's tools at a step, their scores for the request, and the best of them to show the model. */
interface OfferedTools {
  tools: readonly ToolDescriptor[];
  scores: readonly number[];
  ranked: readonly ShownTool[];
}

/** The page's tools change as the page does: they are ranked again at every step. */
function offerTools(run: Run, tools: readonly ToolDescriptor[]): OfferedTools {
  const { request, scorer, maxTools = defaultMaxTools } = run.options;
  const scores = scoreTools(tools, request, { recent: run.recent, scorer });
  return { tools, scores, ranked: rankScoredTools(tools, scores, maxTools) };
}

/** A reply the model streamed to a step's prompt, the tools it was shown, and how to read the reply. */
interface Answer {
  reply: StreamedReply;
  shownTools: readonly CompactTool[];
  parse: (reply: string) => ParseResult;
  /** The prose the person saw of it as it streamed. */
  proseShown: string;
}

/**
 * Fits the prompt and streams the model's reply to it. A prompt the model finds too long is made
 * smaller (see RunPrompt.shrink) and sent again while the person has seen nothing of the step.
 */
async function askModel(run: Run, offered: OfferedTools): Promise<Answer> {
  // The last prompt the model refused, by size, and what it said.
  let refused: { tokens: number; error: unknown } | undefined;
  for (let refits = 0; ; refits += 1) {
    const stepPrompt = run.prompt.next(offered.ranked);
    const tokens = messagesTokens(stepPrompt.messages);
    // A prompt no smaller than the one refused is not sent again: smaller still, or the end.
    if (refused && tokens >= refused.tokens) {
      if (refits >= maxRefits) throw refused.error;
      run.prompt.shrink(undefined);
      continue;
    }
    const sent = await sendPrompt(run, stepPrompt, refits, offered);
    if ('reply' in sent) return sent;
    const tooLong = refits < maxRefits && sent.proseShown === '' && run.prompt.canShrink ? contextFullError(sent.error) : undefined;
    if (!tooLong) throw sent.error;
    refused = { tokens, error: sent.error };
    run.prompt.shrink(tooLong.contextTokens);
  }
}

/**
 * Starts the step with this prompt and streams the model's reply to it; a failure comes back with
 * the prose the person saw before it, which says whether the prompt may still be sent again. The
 * page's tools and their scores are for the trace: how many the page offered, and which the model
 * was not shown.
 */
async function sendPrompt(
  run: Run,
  { shown, messages }: StepPrompt,
  refits: number,
  { tools, scores }: OfferedTools,
): Promise<Answer | { error: unknown; proseShown: string }> {
  const { step, signal, emit } = run;
  const shownTools = shown.map(({ tool }) => tool);
  const shownNames = new Set(shownTools.map((tool) => tool.name));
  emit({ type: 'step-start', step, tools: shown, messages, ...(refits > 0 ? { refits } : {}), offeredCount: tools.length, ...toolsNotShown(tools, scores, shownNames) });
  const parse = (reply: string) => (run.options.format.parseReply ?? parseToolCalls)(reply, shownNames);
  // A fence left empty once the prose filter took a tagged call out of it is markup too.
  const isCall = (block: string) => {
    if (isEmptyFence(block)) return true;
    const { calls, errors } = parse(block);
    return calls.length > 0 || errors.length > 0;
  };
  let proseShown = '';
  const emitStep = (event: AgentEvent) => {
    if (event.type === 'prose-delta') proseShown += event.text;
    emit(event);
  };
  try {
    const reply = await streamReply(run.options.model, { messages, tools: shownTools, signal }, step, emitStep, isCall);
    // The model read this prompt: the person may learn how much of each result it read.
    run.prompt.promptRead();
    return { reply, shownTools, parse, proseShown };
  } catch (error) {
    return { error, proseShown };
  }
}

/** A step's reply as the loop read it, with the page's tools at the step and those the model was shown. */
interface ReadStep {
  tools: readonly ToolDescriptor[];
  shownTools: readonly CompactTool[];
  reply: StreamedReply;
  parsed: ParseResult;
}

/**
 * The reply's own turn is read and kept: a tool result it made up is not the page's, and the
 * model must not read it as fact next step. The trace keeps the reply as it came.
 */
function readReply(run: Run, tools: readonly ToolDescriptor[], { reply, shownTools, parse, proseShown }: Answer): ReadStep {
  const { step } = run;
  const parsed = parse(reply.text);
  settleProse(reply, parsed, { step, proseShown }, run.emit);
  run.emit({ type: 'step-end', step, raw: reply.raw, parsed, usage: reply.usage, modelMs: reply.modelMs });
  run.prompt.addReply(reply.text);
  run.text = parsed.text;
  return { tools, shownTools, reply, parsed };
}

/** What the model reads of a step's calls, in call order, or the reason the run ends there. */
type StepReplies = { replies: CallReply[] } | { stop: FinishReason };

/**
 * The calls the model got wrong (a tool it was not shown, one it could not write) are replied to
 * as they are, for the model to fix; the same one a third time ends the run, as the same call would.
 */
function replyToUnreadCalls(run: Run, { tools, shownTools, reply, parsed }: ReadStep): StepReplies {
  const { step, emit } = run;
  const replies: CallReply[] = [];
  for (const message of parsed.errors) {
    const name = unknownToolName(message);
    const onPage = name !== undefined && tools.some((tool) => tool.name === name);
    // The same missing tool asked for, or the same unreadable call written, a third time ends
    // the run, as the same call would: more steps would only repeat it.
    if (countCall(run, name === undefined ? `\u0002${message}` : `\u0001${name}`) + 1 >= maxIdenticalCalls) {
      emit({ type: 'tool-error', step, ...(name === undefined ? {} : { name }), kind: 'repeated', message: repeatedMistake(name, onPage) });
      return { stop: 'repeated-call' };
    }
    // `shownCount` tells the person a tool the page offers was only not shown; the model's message does not say.
    const notShown = onPage ? { shownCount: shownTools.length } : {};
    // A call whose arguments were no object still names its tool: the person sees which it was.
    const named = name ?? argumentlessToolName(message);
    const details = name === undefined ? { kind: 'parse' as const } : { kind: 'unknown-tool' as const, ...askedArguments(run.options.format, reply.text, name), ...notShown };
    emit({ type: 'tool-error', step, ...(named === undefined ? {} : { name: named }), ...details, message });
    replies.push({ name: 'tool_call', text: message, isError: true });
  }
  return { replies };
}

/** Why the run stopped at the same missing tool, or the same unreadable call, a third time. */
function repeatedMistake(name: string | undefined, onPage: boolean): string {
  if (name === undefined) return `The model wrote the same unreadable tool call ${maxIdenticalCalls} times, so the run was stopped.`;
  const offered = onPage ? 'which was not among the tools shown to it' : 'which this page does not offer';
  return `The model asked ${maxIdenticalCalls} times for "${name}", ${offered}, so the run was stopped.`;
}

/** Checks and runs the step's calls in the order the model wrote them (see runToolCall). */
async function runCalls(run: Run, { tools, shownTools, parsed }: ReadStep): Promise<StepReplies> {
  const { step, signal } = run;
  const replies: CallReply[] = [];
  // The calls of this reply since another call last ran. One written again runs once, and
  // counts once toward the repeated-call stop: a stutter within a reply is not the model going
  // round in circles. Once another call ran, the page may have changed (`get_cart`,
  // `remove_item`, `get_cart`), so the same call again runs again.
  let sinceLastRun = new Set<string>();
  for (const [index, call] of parsed.calls.entries()) {
    const key = callKey(call);
    const earlierInReply = sinceLastRun.has(key);
    sinceLastRun.add(key);
    const timesCalled = earlierInReply ? 0 : countCall(run, key);
    const callId = `${step}.${index + 1}`;
    const compact = shownTools.find((tool) => tool.name === call.name)!;
    const tool = tools.find((candidate) => candidate.name === call.name)!;
    const context = { step, callId, signal, timesCalled, declinedBefore: run.declined.has(key), earlierInReply };
    const outcome = await runToolCall(call, compact, tool, context, run.host);
    if ('stop' in outcome) return { stop: outcome.stop };
    if ('declined' in outcome) run.declined.add(key);
    if ('output' in outcome) sinceLastRun = new Set([key]);
    replies.push('reply' in outcome ? outcome.reply : { name: call.name, output: outcome.output, callId });
    run.recent.unshift(call.name);
  }
  return { replies };
}

/**
 * How many times a call (its name and arguments, a missing tool's name, or what could not be read
 * of it) was made before, in the steps the prompt still shows, and notes it at this step. A step
 * given up is one the model can no longer see, so making its call again is no loop.
 */
function countCall(run: Run, key: string): number {
  const shown = (run.callSteps.get(key) ?? []).filter((made) => made >= run.prompt.firstShownStep);
  run.callSteps.set(key, [...shown, run.step]);
  return shown.length;
}

/** A call as one: its tool and its arguments, whatever the order the model wrote their keys in. */
function callKey(call: ParsedCall): string {
  return `${call.name}\u0000${canonicalJson(call.arguments)}`;
}

/** How many times one step's prompt is made smaller before the run gives up. */
const maxRefits = 3;

/**
 * An error whose `code` says the prompt was longer than the model's context (see LanguageModel),
 * with the model's context where the error says it.
 */
function contextFullError(error: unknown): { contextTokens?: number } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, contextTokens } = error as { code?: unknown; contextTokens?: unknown };
  if (code !== 'context-full') return undefined;
  return typeof contextTokens === 'number' && Number.isInteger(contextTokens) && contextTokens > 0 ? { contextTokens } : {};
}

function toRunError(error: unknown): RunError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { hint, code } = error as { hint?: unknown; code?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof hint === 'string' ? { hint } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
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

/** The tool a parse error says the model asked for and the page does not offer (see unknownToolMessage). */
function unknownToolName(message: string): string | undefined {
  return /^Unknown tool "(.*)"\. Available now: /s.exec(message)?.[1];
}

/** The offered tool a parse error names, whose arguments were not an object (see argumentsMessage). */
function argumentlessToolName(message: string): string | undefined {
  return /^Arguments for "(.*)" must be a JSON object\.$/s.exec(message)?.[1];
}
