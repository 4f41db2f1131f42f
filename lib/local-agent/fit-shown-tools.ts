import type { ChatMessage } from '@webmcp-agents/chat';
import type { ShownTool } from './agent-events';
import { estimateMessageTokens, estimateTokens, messageFrameTokens } from './estimate-tokens';

/**
 * The most tokens a reply may take, unless the run says otherwise (see RunLocalAgentOptions), and
 * the room kept for it when the context runs short. A reply with a tool call takes a fraction of
 * it; the rest absorbs an estimate a little short (prose in some languages, see estimateTokens).
 */
export const defaultReplyTokens = 1024;

/**
 * The room kept for a reply of at most `replyTokens` in a context of `contextTokens`: all of it, up
 * to half the context (or the default, where that is more), so that a long limit in a small context
 * still leaves the page's tools and results room; never less than the default, whose slack absorbs
 * estimates that count short. The engine is asked for no more than this (see RunPrompt.replyLimit).
 */
export function replyRoom(contextTokens: number, replyTokens = defaultReplyTokens): number {
  return Math.min(Math.max(replyTokens, defaultReplyTokens), Math.max(defaultReplyTokens, Math.floor(contextTokens / 2)));
}

/** Room kept for the run's own tool results when the shown tools are fitted to the context. */
const toolResultTokens = 512;

/**
 * The tokens the system prompt (instructions and shown tools) may take in a context of
 * `contextTokens`: what the request, the history, a reply (see replyRoom) and some tool results
 * leave. The same all run long, so the same tools fit at every step.
 */
export function systemPromptRoom(contextTokens: number, request: string, history: readonly ChatMessage[] = [], replyTokens = defaultReplyTokens): number {
  const historyTokens = history.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
  // The system prompt's frame, and the request's message with its own.
  return contextTokens - replyRoom(contextTokens, replyTokens) - toolResultTokens - historyTokens - estimateTokens(request) - 2 * messageFrameTokens;
}

/**
 * The shown tools whose system prompt (`promptFor`) fits `roomTokens` as `estimateTokens` counts,
 * with that prompt. Where all of them do not fit, each is taken best first (one the model asked for
 * before all, then by score, the earlier of equals) if the prompt still fits with it, so a small
 * tool is never left out for a large one that could not fit anyway; they stay in the order shown.
 * Where none fits alone, the best is shown whatever its size. A page whose forms list every
 * country could otherwise fill a 4,096-token context before the model writes a word. The same
 * tools and room always give the same list, so the prompt stays byte-identical from step to step.
 */
export function fitShownTools(
  shown: readonly ShownTool[],
  roomTokens: number,
  promptFor: (shown: readonly ShownTool[]) => string,
): { shown: readonly ShownTool[]; system: string } {
  const whole = promptFor(shown);
  if (shown.length <= 1 || estimateTokens(whole) <= roomTokens) return { shown, system: whole };
  // The model was told a tool it asked for is shown now: it goes before the best scored.
  const asked = (index: number) => (shown[index]!.asked ? 1 : 0);
  const bestFirst = shown.map((_, index) => index).sort((left, right) => asked(right) - asked(left) || shown[right]!.score - shown[left]!.score || left - right);
  let kept: number[] = [];
  for (const index of bestFirst) {
    const tried = [...kept, index].sort((left, right) => left - right);
    if (estimateTokens(promptFor(tried.map((at) => shown[at]!))) <= roomTokens) kept = tried;
  }
  const fitted = (kept.length > 0 ? kept : [bestFirst[0]!]).map((at) => shown[at]!);
  return { shown: fitted, system: promptFor(fitted) };
}
