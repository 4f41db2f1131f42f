import type { ChatMessage, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { isAbortError } from './abortable';
import type { AgentEvent, FinishReason, ToolErrorKind } from './agent-events';
import { defaultInstructions } from './default-instructions';
import type { PromptFormat, ToolReply } from './formats';
import type { LanguageModel } from './language-model';
import { parseToolCalls } from './parse-tool-calls';
import { rankToolsWithScores } from './rank-tools';
import { runToolCall, type ToolCallContext } from './run-tool-call';
import { isEmptyFence } from './fenced-call-holder';
import { estimateMessageTokens, estimateTokens, messageFrameTokens } from './estimate-tokens';
import { fitShownTools, replyTokens, systemPromptRoom } from './fit-shown-tools';
import { fitToolReplies, resultRoom } from './fit-tool-replies';
import { streamReply } from './stream-reply';
import { createSystemPromptCache } from './system-prompt-cache';
import { createFenceMarker, defaultToolOutputLimit, inertMarkup, replyFormatTokens, toolOutputsForModel } from './tool-output-text';
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
   * Tokens the model reads at once, where known. The shown tools are cut, the least relevant
   * first, to what leaves room for the request, the history, a reply and some tool results; a run
   * whose tool results would no longer fit shows the model its oldest results as a short note
   * instead, and a step's results are cut to the room left (a short one taking only what it needs).
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

/**
 * The agent loop: rank the page's tools, prompt, stream the reply, parse its calls, check and run
 * them, and feed results or errors back, until the model answers without a call or a limit hits.
 */
export async function runLocalAgent(options: RunLocalAgentOptions): Promise<RunLocalAgentResult> {
  const { model, format, request, maxSteps = 8, maxTools = 8 } = options;
  const signal = options.signal ?? new AbortController().signal;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const systemPrompt = createSystemPromptCache(format, options.instructions ?? defaultInstructions);
  const host = { executeTool: options.executeTool, approve: options.approve, needsApproval: options.needsApproval, emit };
  const toolOutputLimit = options.toolOutputLimit ?? defaultToolOutputLimit;
  const fenceMarker = createFenceMarker();
  const messages: ChatMessage[] = [{ role: 'user', content: request }];
  // Where the tool results sit in `messages`: the first to go when the context runs short.
  const toolReplies: number[] = [];
  const recent: string[] = [];
  const callCounts = new Map<string, number>();
  let text = '';
  let step = 0;

  // Tokens the run's own messages may take in the next prompt: what the context leaves beside the
  // system prompt, the history and a reply. Unbounded where the context is not known.
  const roomForRun = (system: string, history: readonly ChatMessage[]): number =>
    options.contextTokens === undefined
      ? Number.POSITIVE_INFINITY
      : options.contextTokens -
        replyTokens -
        estimateTokens(system) -
        messageFrameTokens -
        history.reduce((sum, message) => sum + estimateMessageTokens(message), 0);

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
      const history = options.history ?? [];
      const ranked = rankToolsWithScores(tools, request, { max: maxTools, recent, scorer: options.scorer });
      const { shown, system } =
        options.contextTokens === undefined ? { shown: ranked, system: systemPrompt(ranked) } : fitShownTools(ranked, systemPromptRoom(options.contextTokens, request, history), systemPrompt);
      const room = roomForRun(system, history);
      const prompt: ChatMessage[] = [{ role: 'system', content: system }, ...history, ...fitToolReplies(messages, toolReplies, room)];
      emit({ type: 'step-start', step, tools: shown, messages: prompt });
      const shownTools = shown.map(({ tool }) => tool);
      const shownNames = new Set(shownTools.map((tool) => tool.name));
      const parse = (text: string) => (format.parseReply ?? parseToolCalls)(text, shownNames);
      // A fence left empty once the prose filter took a tagged call out of it is markup too.
      const isCall = (block: string) => {
        if (isEmptyFence(block)) return true;
        const { calls, errors } = parse(block);
        return calls.length > 0 || errors.length > 0;
      };
      const reply = await streamReply(model, { messages: prompt, tools: shownTools, signal }, step, emit, isCall);
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
      messages.push({ role: 'assistant', content: reply.raw });
      text = parsed.text;
      if (parsed.calls.length === 0 && parsed.errors.length === 0) return finish('answer');

      // Replies the model reads as they are, and the outputs of the calls that ran, in call order.
      const outcomes: Array<ToolReply | { name: string; output: ToolOutput }> = parsed.errors.map((message) => {
        emit({ type: 'tool-error', step, kind: parseErrorKind(message), message });
        return { name: 'tool_call', text: message, isError: true };
      });
      for (const [index, call] of parsed.calls.entries()) {
        const key = `${call.name}\u0000${JSON.stringify(call.arguments)}`;
        const timesCalled = callCounts.get(key) ?? 0;
        callCounts.set(key, timesCalled + 1);
        const callId = `${step}.${index + 1}`;
        const compact = shownTools.find((tool) => tool.name === call.name)!;
        const tool = tools.find((candidate) => candidate.name === call.name)!;
        const outcome = await runToolCall(call, compact, tool, { step, callId, signal, timesCalled }, host);
        if ('stop' in outcome) return finish(outcome.stop);
        outcomes.push('reply' in outcome ? outcome.reply : { name: call.name, output: outcome.output });
        recent.unshift(call.name);
      }
      // The outputs share what the context leaves beside the run's messages and this step's other replies.
      const outputs = outcomes.flatMap((outcome) => ('output' in outcome ? [outcome.output] : []));
      const otherReplies = outcomes.reduce((sum, outcome) => sum + ('text' in outcome ? estimateTokens(outcome.text) + replyFormatTokens : 0), 0);
      const texts = toolOutputsForModel(outputs, toolOutputLimit, resultRoom(messages, toolReplies, room) - otherReplies, fenceMarker);
      const replies = outcomes.map((outcome): ToolReply => ('text' in outcome ? outcome : { name: outcome.name, text: texts.shift()!, isError: outcome.output.isError }));
      // Error texts quote the page's names and schemas too: nothing of the page goes back live.
      messages.push(format.toolRepliesMessage(replies.map((reply) => ({ ...reply, text: inertMarkup(reply.text) }))));
      toolReplies.push(messages.length - 1);
    }
    return finish('max-steps');
  } catch (error) {
    if (isAbortError(error) || signal.aborted) return finish('aborted');
    return finish('error', toRunError(error));
  }
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

function parseErrorKind(message: string): ToolErrorKind {
  return message.startsWith('Unknown tool') ? 'unknown-tool' : 'parse';
}
