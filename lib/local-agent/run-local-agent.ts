import type { ChatMessage, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { isAbortError } from './abortable';
import type { AgentEvent, FinishReason, ShownTool } from './agent-events';
import { defaultInstructions } from './default-instructions';
import type { PromptFormat } from './formats';
import type { LanguageModel } from './language-model';
import { parseToolCalls } from './parse-tool-calls';
import { rankScoredTools, scoreTools } from './rank-tools';
import { maxIdenticalCalls, runToolCall, type ToolCallContext } from './run-tool-call';
import { isEmptyFence } from './fenced-call-holder';
import { canonicalJson } from './json-values';
import { settleProse } from './settle-prose';
import { messagesTokens, RunPrompt } from './run-prompt';
import { streamReply } from './stream-reply';
import { defaultToolOutputLimit, type CallReply } from './tool-output-text';
import { toolsNotShown } from './tools-not-shown';
import type { ParsedCall, ToolScorer } from './types';

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
  const { model, format, request, maxSteps = 8, maxTools = defaultMaxTools } = options;
  const signal = options.signal ?? new AbortController().signal;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const host = { executeTool: options.executeTool, approve: options.approve, needsApproval: options.needsApproval, emit };
  const prompt = new RunPrompt({
    format,
    request,
    instructions: options.instructions ?? defaultInstructions,
    history: options.history ?? [],
    toolOutputLimit: options.toolOutputLimit ?? defaultToolOutputLimit,
    contextTokens: options.contextTokens,
    emit,
  });
  const recent: string[] = [];
  // The steps each call (its name and arguments, a missing tool's name, or what could not be read
  // of it) was made in. Only those the prompt still shows count toward the repeated-call stop: a
  // step given up is one the model can no longer see, so making its call again is no loop.
  const callSteps = new Map<string, number[]>();
  const countCall = (key: string): number => {
    const shown = (callSteps.get(key) ?? []).filter((made) => made >= prompt.firstShownStep);
    callSteps.set(key, [...shown, step]);
    return shown.length;
  };
  // The calls (name and arguments) the person declined in this run: never asked about again.
  const declined = new Set<string>();
  let text = '';
  let step = 0;

  /**
   * Fits the prompt, streams the model's reply to it, and says how to read the reply. A prompt the
   * model finds too long is made smaller (see RunPrompt.shrink) and sent again while the person
   * has seen nothing of the step. The page's `tools` and their `scores` are for the trace: how many
   * the page offered, and which the model was not shown.
   */
  const askModel = async (ranked: readonly ShownTool[], tools: readonly ToolDescriptor[], scores: readonly number[]) => {
    // The last prompt the model refused, by size, and what it said.
    let refused: { tokens: number; error: unknown } | undefined;
    for (let refits = 0; ; refits += 1) {
      const { shown, messages } = prompt.next(ranked);
      const tokens = messagesTokens(messages);
      // A prompt no smaller than the one refused is not sent again: smaller still, or the end.
      if (refused && tokens >= refused.tokens) {
        if (refits >= maxRefits) throw refused.error;
        prompt.shrink(undefined);
        continue;
      }
      const shownTools = shown.map(({ tool }) => tool);
      const shownNames = new Set(shownTools.map((tool) => tool.name));
      emit({ type: 'step-start', step, tools: shown, messages, ...(refits > 0 ? { refits } : {}), offeredCount: tools.length, ...toolsNotShown(tools, scores, shownNames) });
      const parse = (reply: string) => (format.parseReply ?? parseToolCalls)(reply, shownNames);
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
        const reply = await streamReply(model, { messages, tools: shownTools, signal }, step, emitStep, isCall);
        // The model read this prompt: the person may learn how much of each result it read.
        prompt.promptRead();
        return { reply, shownTools, parse, proseShown };
      } catch (error) {
        const tooLong = refits < maxRefits && proseShown === '' && prompt.canShrink ? contextFullError(error) : undefined;
        if (!tooLong) throw error;
        refused = { tokens, error };
        prompt.shrink(tooLong.contextTokens);
      }
    }
  };

  const finish = (finishReason: FinishReason, error?: RunError): RunLocalAgentResult => {
    emit({ type: 'finish', reason: finishReason, text, steps: step, ...(error ? { error } : {}) });
    return { finishReason, text, steps: step, messages: prompt.messages, ...(error ? { error } : {}) };
  };

  try {
    while (step < maxSteps) {
      if (signal.aborted) return finish('aborted');
      step += 1;
      const tools = await options.getTools();
      // Stopped while the tools were read: the model is not asked.
      if (signal.aborted) return finish('aborted');
      const scores = scoreTools(tools, request, { recent, scorer: options.scorer });
      const ranked = rankScoredTools(tools, scores, maxTools);
      const { reply, shownTools, parse, proseShown } = await askModel(ranked, tools, scores);
      // The reply's own turn is read and kept: a tool result it made up is not the page's, and the
      // model must not read it as fact next step. The trace keeps the reply as it came.
      const parsed = parse(reply.text);
      settleProse(reply, parsed, { step, proseShown }, emit);
      emit({ type: 'step-end', step, raw: reply.raw, parsed, usage: reply.usage, modelMs: reply.modelMs });
      prompt.addReply(reply.text);
      text = parsed.text;
      if (parsed.calls.length === 0 && parsed.errors.length === 0) return finish('answer');

      // Replies the model reads as they are, and the outputs of the calls that ran, in call order.
      const replies: CallReply[] = [];
      for (const message of parsed.errors) {
        const name = unknownToolName(message);
        const onPage = name !== undefined && tools.some((tool) => tool.name === name);
        // The same missing tool asked for, or the same unreadable call written, a third time ends
        // the run, as the same call would: more steps would only repeat it.
        if (countCall(name === undefined ? `\u0002${message}` : `\u0001${name}`) + 1 >= maxIdenticalCalls) {
          const offered = onPage ? 'which was not among the tools shown to it' : 'which this page does not offer';
          const stopped =
            name === undefined
              ? `The model wrote the same unreadable tool call ${maxIdenticalCalls} times, so the run was stopped.`
              : `The model asked ${maxIdenticalCalls} times for "${name}", ${offered}, so the run was stopped.`;
          emit({ type: 'tool-error', step, ...(name === undefined ? {} : { name }), kind: 'repeated', message: stopped });
          return finish('repeated-call');
        }
        // `shownCount` tells the person a tool the page offers was only not shown; the model's message does not say.
        const notShown = onPage ? { shownCount: shownTools.length } : {};
        // A call whose arguments were no object still names its tool: the person sees which it was.
        const named = name ?? argumentlessToolName(message);
        const details = name === undefined ? { kind: 'parse' as const } : { kind: 'unknown-tool' as const, ...askedArguments(format, reply.text, name), ...notShown };
        emit({ type: 'tool-error', step, ...(named === undefined ? {} : { name: named }), ...details, message });
        replies.push({ name: 'tool_call', text: message, isError: true });
      }
      // The calls of this reply since another call last ran. One written again runs once, and
      // counts once toward the repeated-call stop: a stutter within a reply is not the model going
      // round in circles. Once another call ran, the page may have changed (`get_cart`,
      // `remove_item`, `get_cart`), so the same call again runs again.
      let sinceLastRun = new Set<string>();
      for (const [index, call] of parsed.calls.entries()) {
        const key = callKey(call);
        const earlierInReply = sinceLastRun.has(key);
        sinceLastRun.add(key);
        const timesCalled = earlierInReply ? 0 : countCall(key);
        const callId = `${step}.${index + 1}`;
        const compact = shownTools.find((tool) => tool.name === call.name)!;
        const tool = tools.find((candidate) => candidate.name === call.name)!;
        const context = { step, callId, signal, timesCalled, declinedBefore: declined.has(key), earlierInReply };
        const outcome = await runToolCall(call, compact, tool, context, host);
        if ('stop' in outcome) return finish(outcome.stop);
        if ('declined' in outcome) declined.add(key);
        if ('output' in outcome) sinceLastRun = new Set([key]);
        replies.push('reply' in outcome ? outcome.reply : { name: call.name, output: outcome.output, callId });
        recent.unshift(call.name);
      }
      prompt.addResults(step, replies);
    }
    return finish('max-steps');
  } catch (error) {
    if (isAbortError(error) || signal.aborted) return finish('aborted');
    return finish('error', toRunError(error));
  }
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
