import type { ChatMessage } from '@webmcp-agents/chat';
import { estimateMessageTokens, estimateTokens, messageFrameTokens } from './estimate-tokens';

/** What stands in for a tool's output left out of the prompt. */
export const leftOutToolOutput = '(An earlier tool result was left out here to fit the model\'s context. Call the tool again if you need it.)';

const leftOutTokens = estimateTokens(leftOutToolOutput);

/**
 * The run's messages as the next prompt shows them: whole while they fit in `roomTokens` (as
 * `estimateMessageTokens` counts), else with the oldest tool results (never the latest) replaced
 * by a short note, oldest first, until they fit. `resultIndexes` are the indexes of the tool-result
 * messages in `messages`. The messages themselves are left as they are.
 */
export function fitToolReplies(messages: readonly ChatMessage[], resultIndexes: readonly number[], roomTokens: number): ChatMessage[] {
  if (roomTokens === Number.POSITIVE_INFINITY) return [...messages];
  let size = messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
  if (size <= roomTokens) return [...messages];
  const fitted = [...messages];
  for (const index of resultIndexes.slice(0, -1)) {
    const message = fitted[index]!;
    size -= estimateTokens(message.content) - leftOutTokens;
    fitted[index] = { ...message, content: leftOutToolOutput };
    if (size <= roomTokens) break;
  }
  return fitted;
}

/**
 * Tokens the results of the step about to run may take together, so that the next prompt still
 * fits `roomTokens` (as `estimateMessageTokens` counts): what the run's messages leave with every
 * earlier result left out (the newest results come first; `fitToolReplies` then leaves out only
 * as many earlier ones as it must), less the results' own message frame.
 */
export function resultRoom(messages: readonly ChatMessage[], resultIndexes: readonly number[], roomTokens: number): number {
  if (roomTokens === Number.POSITIVE_INFINITY) return roomTokens;
  const earlier = new Set(resultIndexes);
  const size = messages.reduce((sum, message, index) => sum + (earlier.has(index) ? leftOutTokens + messageFrameTokens : estimateMessageTokens(message)), 0);
  return roomTokens - size - messageFrameTokens;
}
