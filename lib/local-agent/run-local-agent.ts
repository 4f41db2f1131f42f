import type { ChatMessage, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { isAbortError } from './abortable';
import type { AgentEvent, FinishReason, ShownTool } from './agent-events';
import { defaultInstructions } from './default-instructions';
import type { PromptFormat } from './formats';
import type { LanguageModel } from './language-model';
import { parseToolCalls } from './parse-tool-calls';
import { rankToolsWithScores } from './rank-tools';
import { maxIdenticalCalls, runToolCall, type ToolCallContext } from './run-tool-call';
import { isEmptyFence } from './fenced-call-holder';
import { estimateMessageTokens, estimateTokens, messageFrameTokens } from './estimate-tokens';
import { fitShownTools, replyTokens, systemPromptRoom } from './fit-shown-tools';
import { leastResultTokens, leftOutTokens, leftOutToolOutput, shareResultRoom, type StepSize } from './fit-tool-replies';
import { streamReply } from './stream-reply';
import { createSystemPromptCache } from './system-prompt-cache';
import { createFenceMarker, defaultToolOutputLimit, toolRepliesForModel, type CallReply } from './tool-output-text';
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
  const systemPrompt = createSystemPromptCache(format, options.instructions ?? defaultInstructions);
  const host = { executeTool: options.executeTool, approve: options.approve, needsApproval: options.needsApproval, emit };
  const toolOutputLimit = options.toolOutputLimit ?? defaultToolOutputLimit;
  const fenceMarker = createFenceMarker();
  const messages: ChatMessage[] = [{ role: 'user', content: request }];
  const recent: string[] = [];
  // The steps each call (its name and arguments, or a missing tool's name) was made in. Only those
  // the prompt still shows count toward the repeated-call stop: a step given up is one the model
  // can no longer see, so making its call again is no loop.
  const callSteps = new Map<string, number[]>();
  let firstShownStep = 1;
  const countCall = (key: string): number => {
    const shown = (callSteps.get(key) ?? []).filter((made) => made >= firstShownStep);
    callSteps.set(key, [...shown, step]);
    return shown.length;
  };
  let text = '';
  let step = 0;

  // The context the prompt is fitted to: the model's own, until the model finds a prompt longer
  // than its context after all (the estimate counted short); then less, for the rest of the run.
  // The tools are fitted to a context of their own, which only a smaller context cuts.
  let contextTokens = options.contextTokens;
  let toolsContextTokens = options.contextTokens;
  // The earlier turns the prompt shows: the oldest give way when the newest results need the room.
  let history = options.history ?? [];
  // Every step's results: where their message sits in `messages`, its tokens whole and at the
  // least, and the share of the room it was last cut to (undefined: left out).
  const stepResults: Array<
    StepSize & { step: number; index: number; replies: readonly CallReply[]; share: number | undefined; read: readonly number[]; told: boolean }
  > = [];

  // The tools shown and the system prompt that fit the context, beside the whole history so that
  // they stay the same all run.
  const fitSystemPrompt = (ranked: readonly ShownTool[]) =>
    toolsContextTokens === undefined
      ? { shown: ranked, system: systemPrompt(ranked) }
      : fitShownTools(ranked, systemPromptRoom(toolsContextTokens, request, options.history), systemPrompt);

  // Tokens the run's own messages may take in the next prompt: what the context leaves beside the
  // system prompt, the history and a reply. Unbounded where the context is not known.
  const roomForRun = (system: string): number =>
    contextTokens === undefined
      ? Number.POSITIVE_INFINITY
      : contextTokens - replyTokens - estimateTokens(system) - messageFrameTokens - messagesTokens(history);

  // A step's replies as one message of at most `tokens`, frame included (whole where unbounded).
  const repliesMessage = (replies: readonly CallReply[], tokens: number) =>
    toolRepliesForModel(replies, format, { characters: toolOutputLimit, roomTokens: tokens - messageFrameTokens }, fenceMarker);

  // Says, once, how much of each of a step's outputs the model read in the first prompt it
  // answered that shows them (for the person: a card shows the whole result).
  const tellWhatWasRead = (results: (typeof stepResults)[number]) => {
    if (results.told) return;
    results.told = true;
    const outputs = results.replies.flatMap((reply) => ('output' in reply ? [reply] : []));
    const read = outputs.flatMap((reply, index) => (reply.callId ? [{ callId: reply.callId, characters: results.read[index]!, of: reply.output.text.length }] : []));
    if (read.some(({ characters, of }) => characters < of)) emit({ type: 'results-read', step: results.step, results: read });
  };

  /**
   * The run's messages as the next prompt shows them, in what the context leaves the run beside
   * `system`: each step's results cut to their share of the room (see shareResultRoom), and kept so
   * in `messages` as the model reads them, or a note where they are left out. Where the newest
   * results would have less room than they need and `leastResultTokens`, the oldest turns of the
   * history give way first, then the oldest steps of the run.
   */
  const fitRunMessages = (system: string): ChatMessage[] => {
    if (stepResults.length === 0) return [...messages];
    const resultAt = () => new Set(stepResults.map(({ index }) => index));
    const others = () => messages.reduce((sum, message, index) => sum + (resultAt().has(index) ? 0 : estimateMessageTokens(message)), 0);
    const newest = stepResults.at(-1)!;
    const newestWants = Math.min(newest.need, Math.max(newest.floor, leastResultTokens));
    // What the newest could have with every older step left out.
    const newestRoom = () => roomForRun(system) - others() - (stepResults.length - 1) * leftOutTokens;
    while (history.length > 0 && newestRoom() < newestWants) history = withoutOldestTurn(history);
    // A long run then gives up its oldest steps whole: the reply that made the calls and their results.
    while (stepResults.length > 1 && newestRoom() < newestWants) dropOldestStep();
    const newestFirst = [...stepResults].reverse();
    const shares = shareResultRoom(newestFirst, roomForRun(system) - others());
    newestFirst.forEach((results, at) => {
      const share = shares[at];
      // Whole where the share holds it: cutting to the very figure could lose a token to rounding.
      const cutTo = share === undefined || share < results.need ? share : Number.POSITIVE_INFINITY;
      if (cutTo !== results.share) {
        const cut = cutTo === undefined ? undefined : repliesMessage(results.replies, cutTo);
        messages[results.index] = cut?.message ?? { ...messages[results.index]!, content: leftOutToolOutput };
        results.read = cut?.read ?? results.read.map(() => 0);
        results.share = cutTo;
      }
    });
    return [...messages];
  };

  // The oldest step leaves the run's messages: the model's reply before its results, and them.
  const dropOldestStep = () => {
    const oldest = stepResults.shift()!;
    messages.splice(oldest.index - 1, 2);
    firstShownStep = oldest.step + 1;
    for (const results of stepResults) results.index -= 2;
  };

  /**
   * Makes the next prompt smaller after the model found one too long: fitted to the model's own
   * context where it says that is smaller; else without the older half of the history (the room
   * for the tools and the run's results stays as it was, so the prompt is that much shorter); else
   * with a quarter less room all round (fewer tools may be shown, the results are cut shorter).
   */
  const shrink = (modelContext: number | undefined) => {
    if (modelContext !== undefined && modelContext < contextTokens!) {
      contextTokens = modelContext;
      toolsContextTokens = Math.min(toolsContextTokens!, modelContext);
    } else if (history.length > 0) {
      const kept = withoutOlderHalf(history);
      contextTokens! -= messagesTokens(history) - messagesTokens(kept);
      history = kept;
    } else {
      contextTokens = Math.floor((contextTokens! * 3) / 4);
      toolsContextTokens = Math.floor((toolsContextTokens! * 3) / 4);
    }
  };

  /**
   * Fits the prompt, streams the model's reply to it, and says how to read the reply. A prompt the
   * model finds too long is made smaller (see shrink) and sent again while the person has seen
   * nothing of the step.
   */
  const askModel = async (ranked: readonly ShownTool[]) => {
    // The last prompt the model refused, by size, and what it said.
    let refused: { tokens: number; error: unknown } | undefined;
    for (let refits = 0; ; refits += 1) {
      const { shown, system } = fitSystemPrompt(ranked);
      const runMessages = fitRunMessages(system);
      const prompt: ChatMessage[] = [{ role: 'system', content: system }, ...history, ...runMessages];
      const tokens = messagesTokens(prompt);
      // A prompt no smaller than the one refused is not sent again: smaller still, or the end.
      if (refused && tokens >= refused.tokens) {
        if (refits >= maxRefits) throw refused.error;
        shrink(undefined);
        continue;
      }
      emit({ type: 'step-start', step, tools: shown, messages: prompt, ...(refits > 0 ? { refits } : {}) });
      const shownTools = shown.map(({ tool }) => tool);
      const shownNames = new Set(shownTools.map((tool) => tool.name));
      const parse = (reply: string) => (format.parseReply ?? parseToolCalls)(reply, shownNames);
      // A fence left empty once the prose filter took a tagged call out of it is markup too.
      const isCall = (block: string) => {
        if (isEmptyFence(block)) return true;
        const { calls, errors } = parse(block);
        return calls.length > 0 || errors.length > 0;
      };
      let proseShown = false;
      const emitStep = (event: AgentEvent) => {
        proseShown ||= event.type === 'prose-delta';
        emit(event);
      };
      try {
        const reply = await streamReply(model, { messages: prompt, tools: shownTools, signal }, step, emitStep, isCall);
        // The model read this prompt: the person may learn how much of each result it read.
        for (const results of stepResults) tellWhatWasRead(results);
        return { reply, shownTools, parse };
      } catch (error) {
        const tooLong = refits < maxRefits && !proseShown && contextTokens !== undefined && toolsContextTokens !== undefined ? contextFullError(error) : undefined;
        if (!tooLong) throw error;
        refused = { tokens, error };
        shrink(tooLong.contextTokens);
      }
    }
  };

  const finish = (finishReason: FinishReason, error?: RunError): RunLocalAgentResult => {
    emit({ type: 'finish', reason: finishReason, text, steps: step, ...(error ? { error } : {}) });
    return { finishReason, text, steps: step, messages, ...(error ? { error } : {}) };
  };

  try {
    while (step < maxSteps) {
      if (signal.aborted) return finish('aborted');
      step += 1;
      const tools = await options.getTools();
      // Stopped while the tools were read: the model is not asked.
      if (signal.aborted) return finish('aborted');
      const ranked = rankToolsWithScores(tools, request, { max: maxTools, recent, scorer: options.scorer });
      const { reply, shownTools, parse } = await askModel(ranked);
      const parsed = parse(reply.raw);
      // Held-back prose was a call after all (show what is around it) or an answer (show it).
      if (reply.heldProse !== undefined) {
        const shownProse = parsed.calls.length > 0 || parsed.errors.length > 0 ? parsed.text : reply.heldProse;
        if (shownProse) emit({ type: 'prose-delta', step, text: shownProse });
      }
      // A fenced block kept back as a call that the parse left as prose after all (beside tagged
      // calls) is shown, unless the held-back prose above already showed the parsed text.
      if (reply.heldProse === undefined) {
        for (const block of reply.hiddenBlocks) {
          if (parsed.text.includes(block)) emit({ type: 'prose-delta', step, text: block });
        }
      }
      emit({ type: 'step-end', step, raw: reply.raw, parsed, usage: reply.usage, modelMs: reply.modelMs });
      // An empty reasoning block (a model told not to think writes one) is nothing to read again.
      messages.push({ role: 'assistant', content: reply.raw.replace(/^\s*<think>\s*<\/think>\s*/, '') });
      text = parsed.text;
      if (parsed.calls.length === 0 && parsed.errors.length === 0) return finish('answer');

      // Replies the model reads as they are, and the outputs of the calls that ran, in call order.
      const replies: CallReply[] = [];
      for (const message of parsed.errors) {
        const name = unknownToolName(message);
        if (name !== undefined) {
          // The same missing tool asked for a third time ends the run, as the same call would.
          if (countCall(`\u0001${name}`) + 1 >= maxIdenticalCalls) {
            const offered = tools.some((tool) => tool.name === name) ? 'which was not among the tools shown to it' : 'which this page does not offer';
            const stopped = `The model asked ${maxIdenticalCalls} times for "${name}", ${offered}, so the run was stopped.`;
            emit({ type: 'tool-error', step, name, kind: 'repeated', message: stopped });
            return finish('repeated-call');
          }
        }
        emit({ type: 'tool-error', step, ...(name === undefined ? { kind: 'parse' } : { name, kind: 'unknown-tool', ...askedArguments(format, reply.raw, name) }), message });
        replies.push({ name: 'tool_call', text: message, isError: true });
      }
      for (const [index, call] of parsed.calls.entries()) {
        const timesCalled = countCall(`${call.name}\u0000${JSON.stringify(call.arguments)}`);
        const callId = `${step}.${index + 1}`;
        const compact = shownTools.find((tool) => tool.name === call.name)!;
        const tool = tools.find((candidate) => candidate.name === call.name)!;
        const outcome = await runToolCall(call, compact, tool, { step, callId, signal, timesCalled }, host);
        if ('stop' in outcome) return finish(outcome.stop);
        replies.push('reply' in outcome ? outcome.reply : { name: call.name, output: outcome.output, callId });
        recent.unshift(call.name);
      }
      // Whole for now: the next prompt cuts the run's results to its room.
      const whole = repliesMessage(replies, Number.POSITIVE_INFINITY);
      messages.push(whole.message);
      const need = estimateMessageTokens(whole.message);
      // With no room at all, each output keeps its start and a note: the step's floor.
      const floor = Math.min(need, estimateMessageTokens(repliesMessage(replies, 0).message));
      stepResults.push({ step, index: messages.length - 1, replies, need, floor, share: Number.POSITIVE_INFINITY, read: whole.read, told: false });
    }
    return finish('max-steps');
  } catch (error) {
    if (isAbortError(error) || signal.aborted) return finish('aborted');
    return finish('error', toRunError(error));
  }
}

/** The history without its oldest turn: the first message, and the replies that follow it. */
function withoutOldestTurn(history: readonly ChatMessage[]): ChatMessage[] {
  let start = 1;
  while (start < history.length && history[start]!.role !== 'user') start += 1;
  return history.slice(start);
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

function messagesTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

/** The history without its older half (by tokens), whole turns at a time. */
function withoutOlderHalf(history: readonly ChatMessage[]): ChatMessage[] {
  const half = messagesTokens(history) / 2;
  let kept = withoutOldestTurn(history);
  while (kept.length > 0 && messagesTokens(kept) > half) kept = withoutOldestTurn(kept);
  return kept;
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
