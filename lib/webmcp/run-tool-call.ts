import type { ToolCall, ToolCallReply } from '../messaging/protocol';
import { toErrorPayload } from '../messaging/to-error-payload';
import { abortable } from './adapters/tool-adapter';
import type { PageToolReader } from './page-tool-reader';
import { toolLimits } from './tool-limits';

/** The calls running in this frame, so the background can abort one by id. */
export type RunningCalls = Map<string, AbortController>;

/**
 * Runs one call in the page and answers with its result, `null` if it navigated, or the error.
 * The page's AbortSignal fires on timeout or when the background aborts. Never throws.
 */
export async function runToolCall(reader: Pick<PageToolReader, 'sourceOf'>, call: ToolCall, running: RunningCalls): Promise<ToolCallReply> {
  const controller = new AbortController();
  running.set(call.callId, controller);
  const timer = setTimeout(() => controller.abort(timeoutError(call.name, call.timeoutMs)), call.timeoutMs);
  try {
    const source = await reader.sourceOf(call.name);
    if (!source) throw Object.assign(new Error(`The page offers no tool named "${call.name}".`), { name: 'NotFoundError' });
    // Raced with the signal: a source that ignores it must not hold the call past its timeout.
    const result = await abortable(source.execute(call.name, call.args, controller.signal), controller.signal);
    return { status: 'ok', result: typeof result === 'string' ? result.slice(0, toolLimits.resultCharacters) : null };
  } catch (error) {
    // A timeout is reported as such, whatever the page threw when its signal aborted.
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
    return { status: 'error', error: toErrorPayload(reason, toolLimits.errorCharacters) };
  } finally {
    clearTimeout(timer);
    running.delete(call.callId);
  }
}

/** Stops a running call: the page's signal aborts and the call answers with an AbortError. */
export function abortToolCall(running: RunningCalls, callId: string): void {
  running.get(callId)?.abort(Object.assign(new Error('The call was stopped.'), { name: 'AbortError' }));
}

export function timeoutError(name: string, timeoutMs: number): Error {
  return Object.assign(new Error(timeoutMessage(name, timeoutMs)), { name: 'TimeoutError' });
}

/** `The tool "x" did not answer within 30 s.` */
export function timeoutMessage(name: string, timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  const shown = Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
  return `The tool "${name}" did not answer within ${shown} s.`;
}
