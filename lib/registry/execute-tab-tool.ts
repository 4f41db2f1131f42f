import type { ToolOutput } from '@webmcp-agents/chat';
import { sendToContent } from '../messaging/runtime-messaging';
import { errorMessage } from '../messaging/error-message';
import type { ToolCallReply } from '../messaging/protocol';
import { timeoutMessage } from '../webmcp/run-tool-call';
import { defaultToolTimeoutMs } from '../webmcp/tool-limits';
import { foundNoPage } from './look-again-in-tab';
import { hearTabsOpenedBy } from './tabs-opened-by';
import type { TabToolRegistry } from './tab-tool-registry';
import { noAnswerOutput, toolRunFromResult, type ToolRun } from './tool-output-from-result';

export interface ExecuteOptions {
  /** Aborting stops the call: the page's signal aborts and the promise rejects. */
  signal?: AbortSignal;
  /** Default 30 s. */
  timeoutMs?: number;
  /**
   * The frame whose tool was chosen (and approved): the call runs there or not at all, never in
   * another frame that offers the same name by the time it runs.
   */
  frameId?: number;
  /**
   * The document whose tool was chosen (and approved), where the browser names documents: the
   * call runs in that document or not at all, never in the next one its frame holds by then.
   */
  documentId?: string;
}

/** Where a call goes: the frame, and the document in it where known. */
interface CallTarget {
  frameId: number;
  documentId?: string;
}

/** Extra time the background waits past the page's own timeout, for a frame that froze. */
const graceMs = 2_000;

/**
 * Runs a tab's tool in the frame that offers it (the top frame first when frames share a name),
 * and in the document that offered it where the browser names documents. Page faults come back
 * as text with `isError`; only an abort rejects.
 */
export async function executeTabTool(
  registry: TabToolRegistry,
  tabId: number,
  name: string,
  args: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ToolOutput> {
  return (await runTabTool(registry, tabId, name, args, options)).output;
}

/** `executeTabTool`, with an MCP-style result's `structuredContent` beside the output (for the inspector). */
export async function runTabTool(
  registry: TabToolRegistry,
  tabId: number,
  name: string,
  args: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ToolRun> {
  options.signal?.throwIfAborted();
  const tool = (await registry.get(tabId))?.tools.find(
    (candidate) => candidate.name === name && (options.frameId === undefined || candidate.frameId === options.frameId),
  );
  // Stop may have come while the registry answered: the call must not go out after it.
  options.signal?.throwIfAborted();
  if (!tool) return { output: { text: `The page offers no tool named "${name}".`, isError: true } };
  if (options.documentId !== undefined && tool.documentId !== undefined && tool.documentId !== options.documentId) {
    return { output: { text: pageChangedMessage(name), isError: true } };
  }
  // The browser itself then refuses to deliver to any other document of the frame.
  const documentId = options.documentId ?? tool.documentId;
  const target = { frameId: tool.frameId, ...(documentId === undefined ? {} : { documentId }) };
  const timeoutMs = options.timeoutMs ?? defaultToolTimeoutMs;
  const call = { callId: crypto.randomUUID(), name, args, timeoutMs };
  // A form sent to a new tab: only the browser knows whether it opened one.
  const opened = hearTabsOpenedBy(tabId, tool.frameId);
  try {
    const reply = await raceCall(tabId, target, call, options.signal);
    if (reply.kind === 'timeout') return { output: { text: timeoutMessage(name, timeoutMs), isError: true } };
    if (reply.kind === 'failed') {
      // The document that offered the tool no longer takes messages: a renderer that crashed tells
      // extensions nothing else, so its tools would stay listed. One the browser names goes alone.
      if (foundNoPage(reply.error) && tool.documentId !== undefined) void registry.frameGone(tabId, tool.frameId, tool.documentId);
      return { output: outputForDeliveryFailure(name, tool.frameId, reply.error) };
    }
    if (reply.reply.status !== 'ok') return { output: { text: reply.reply.error.message || `The tool "${name}" failed (${reply.reply.error.name}).`, isError: true } };
    const run = toolRunFromResult(name, reply.reply.result, reply.reply.fullLength, reply.reply.structuredContentDropped, tool.frameId);
    return { ...run, output: await opened.confirm(run.output, options.signal) };
  } finally {
    opened.stop();
  }
}

type CallOutcome = { kind: 'reply'; reply: ToolCallReply } | { kind: 'timeout' } | { kind: 'failed'; error: unknown };

/** What the model reads of a call whose frame shows another document than the one whose tool it chose. */
export function pageChangedMessage(name: string): string {
  return `The page that offered "${name}" changed before the call could run, so nothing was run. Its tools will be listed again: choose from those.`;
}

function raceCall(
  tabId: number,
  target: CallTarget,
  call: { callId: string; name: string; args: Record<string, unknown>; timeoutMs: number },
  signal: AbortSignal | undefined,
): Promise<CallOutcome> {
  return new Promise<CallOutcome>((resolve, reject) => {
    const timer = setTimeout(() => finish({ kind: 'timeout' }), call.timeoutMs + graceMs);
    const onAbort = (): void => {
      sendToContent(tabId, 'tool-abort', { callId: call.callId }, target).catch(() => undefined);
      clearTimeout(timer);
      reject(signal?.reason);
    };
    function finish(outcome: CallOutcome): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    sendToContent(tabId, 'tool-execute', call, target).then(
      (reply) => finish({ kind: 'reply', reply }),
      (error: unknown) => finish({ kind: 'failed', error }),
    );
  });
}

/** The message could not make the round trip: the frame navigated mid-call, or is gone. */
function outputForDeliveryFailure(name: string, frameId: number, error: unknown): ToolOutput {
  const message = errorMessage(error);
  if (/channel closed|port closed|back\/forward cache/i.test(message)) return noAnswerOutput(name, frameId);
  if (foundNoPage(error)) {
    const gone = frameId === 0 ? `The page that offered "${name}" is gone (it navigated or closed).` : `The frame that offered "${name}" is gone (it navigated or was removed).`;
    return { text: gone, isError: true };
  }
  return { text: `The tool "${name}" could not be run: ${message}`, isError: true };
}
