import { hermesFormat, runLocalAgent, type LanguageModel, type RunLocalAgentResult } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '@/lib/engines/replay-engine';
import type { TraceRecorder } from '@/lib/traces/trace-recorder';
import { createShopPage, shopReplies, type ShopPage } from './shop-page';

export interface RecordOptions {
  recorder: TraceRecorder;
  runId: string;
  page?: ShopPage;
  replies?: readonly string[];
  request?: string;
  startedAt?: number;
  /** Leave the run without an end, as a service worker stopped mid-run does. */
  leaveUnfinished?: boolean;
  approve?: (name: string) => boolean;
  /** Instead of replaying `replies`. */
  model?: LanguageModel;
  /** The characters of a result the model may read (runLocalAgent's default otherwise). */
  toolOutputLimit?: number;
  /** Stops the run, as the side panel's Stop does. */
  signal?: AbortSignal;
}

/** Runs the agent loop on the shop page with recorded replies, as the background would, recording it. */
export async function recordShopRun(options: RecordOptions): Promise<RunLocalAgentResult> {
  const page = options.page ?? createShopPage();
  const { recorder, runId } = options;
  const startedAt = options.startedAt ?? Date.now();
  const request = options.request ?? 'Put two enamel mugs in my cart';
  recorder.startRun({ runId, tabId: 7, url: page.url, origin: page.origin, engineId: 'replay', model: 'recorded replies', request, startedAt, format: 'hermes' });
  const result = await runLocalAgent({
    request,
    model: options.model ?? createReplayEngine(options.replies ?? shopReplies, { chunkSize: 3 }),
    format: hermesFormat,
    getTools: page.tools,
    executeTool: (call) => page.executeTool(call.name, call.arguments),
    approve: async (call, { tool }) => tool.annotations?.readOnlyHint === true || (options.approve?.(call.name) ?? true),
    onEvent: (event) => recorder.record(runId, event),
    toolOutputLimit: options.toolOutputLimit,
    signal: options.signal,
  });
  if (!options.leaveUnfinished) recorder.endRun(runId, result.finishReason === 'aborted' ? 'stopped' : result.finishReason, Date.now());
  return result;
}
