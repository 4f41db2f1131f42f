import type { ToolCall, ToolCallReply } from '../messaging/protocol';
import { toErrorPayload } from '../messaging/to-error-payload';
import { abortable, toolNotFound } from './adapters/tool-adapter';
import { cutAndSay } from './cut-and-say';
import type { PageToolReader } from './page-tool-reader';
import { readMcpResult } from './read-mcp-result';
import { toolLimits } from './tool-limits';
import { namedError } from '../messaging/named-error';

/** The calls running in this frame, so the background can abort one by id. */
export type RunningCalls = Map<string, AbortController>;

/**
 * Runs one call in the page and answers with its result, `null` if its document went away first, or the error.
 * The page's AbortSignal fires on timeout or when the background aborts. Never throws.
 */
export async function runToolCall(reader: Pick<PageToolReader, 'sourceOf'>, call: ToolCall, running: RunningCalls): Promise<ToolCallReply> {
  const controller = new AbortController();
  running.set(call.callId, controller);
  const timer = setTimeout(() => controller.abort(timeoutError(call.name, call.timeoutMs)), call.timeoutMs);
  try {
    const source = await reader.sourceOf(call.name);
    if (!source) throw toolNotFound(call.name);
    // Raced with the signal: a source that ignores it must not hold the call past its timeout.
    const result = await abortable(source.execute(call.name, call.args, controller.signal), controller.signal);
    return typeof result === 'string' ? { status: 'ok', ...capResult(result) } : { status: 'ok', result: null };
  } catch (error) {
    // A timeout is reported as such, whatever the page threw when its signal aborted.
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
    const payload = toErrorPayload(reason, Infinity);
    return { status: 'error', error: { ...payload, message: cutAndSay(payload.message, toolLimits.errorCharacters) } };
  } finally {
    clearTimeout(timer);
    running.delete(call.callId);
  }
}

/**
 * A long result, cut with a line that says so, and the length of what was cut: the background
 * and the trace say "N of M characters" of the result the page gave, not of the part carried. An
 * MCP-style result is read before it is cut, and its text cut: cut JSON would reach the model as
 * raw JSON, and without its `isError`. Its `structuredContent` is left out, and that is said, so
 * the inspector does not blame the page for a result without one.
 */
function capResult(result: string): { result: string; fullLength?: number; structuredContentDropped?: true } {
  const limit = toolLimits.resultCharacters;
  if (result.length <= limit) return { result };
  const mcp = readMcpResult(result);
  if (!mcp) return { result: cutAndSay(result, limit), fullLength: result.length };
  const text = cutAndSay(mcp.text, limit);
  const cut = JSON.stringify({ content: [{ type: 'text', text }], ...(mcp.isError ? { isError: true } : {}) });
  return {
    result: cut,
    ...(text === mcp.text ? {} : { fullLength: mcp.text.length }),
    ...(mcp.structuredContent === undefined ? {} : { structuredContentDropped: true as const }),
  };
}

/** Stops a running call: the page's signal aborts and the call answers with an AbortError. */
export function abortToolCall(running: RunningCalls, callId: string): void {
  running.get(callId)?.abort(namedError('AbortError', 'The call was stopped.'));
}

function timeoutError(name: string, timeoutMs: number): Error {
  return namedError('TimeoutError', timeoutMessage(name, timeoutMs));
}

/** `The tool "x" did not answer within 30 s.` */
export function timeoutMessage(name: string, timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  const shown = Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
  return `The tool "${name}" did not answer within ${shown} s.`;
}
