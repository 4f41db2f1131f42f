import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import {
  runLocalAgent,
  type AgentEvent,
  type FinishReason,
  type ParsedCall,
  type RunError,
  type ToolCallContext,
  type ToolScorer,
  type ToolWithdrawn,
} from '@webmcp-agents/local-agent';
import { approvalReason } from '../agent/approval-policy';
import { createReplayEngine } from '../engines/replay-engine';
import { toolOriginOf } from '../registry/tool-target';
import type { Divergence } from './divergence-schema';
import { findDivergences } from './find-divergences';
import { promptFormatOf } from './prompt-format-of';
import { TraceBuilder } from './trace-builder';
import type { ReplayAskReason } from './trace-protocol';
import type { StoredTrace, TraceStep } from './trace-schema';

/** A call the replay wants to run, for the person to allow or skip. */
export interface ReplayCall {
  step: number;
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
  reason: ReplayAskReason;
  /** The site of the frame that offers the tool, where the registry says. */
  origin?: string;
}

export interface ReplayTraceOptions {
  trace: StoredTrace;
  /** The tab's tools now, read at every step as in a real run. */
  getTools(): readonly ToolDescriptor[] | Promise<readonly ToolDescriptor[]>;
  executeTool(call: ParsedCall, context: ToolCallContext): Promise<ToolOutput>;
  /**
   * Why a call may not run, where the page no longer offers its tool as the step showed it (`when`
   * it changed or went), as in a live run (see toolNow); undefined where it does.
   */
  toolWithdrawn?(tool: ToolDescriptor, when: string): Promise<ToolWithdrawn | undefined>;
  /**
   * Asked before a call a live run would ask about (see askReason): a tool not marked read-only, or
   * one of a frame of another site (every tool, with `askEveryCall`); false skips the call.
   */
  confirm(call: ReplayCall): Promise<boolean>;
  /** The person asked to confirm every call (the "confirm every call" setting). */
  askEveryCall?: boolean;
  /** The tab's site: a tool of a frame of another site asks, read-only or not, as in a live run. */
  site?: string;
  scorer?: ToolScorer;
  signal?: AbortSignal;
  /** Every event of the replay as it happens, for progress. */
  onEvent?(event: AgentEvent): void;
  now?: () => number;
}

export interface ReplayReport {
  finishReason: FinishReason;
  /** What went wrong, when the replay ended on an error. */
  error?: RunError;
  /** The replay's own steps, in the same shape as the recording's. */
  steps: TraceStep[];
  divergences: Divergence[];
}

/**
 * Runs a recorded run again against the page as it is now: the model's replies come from the
 * recording (only the steps it finished), the tools run for real. Then says where it went
 * differently.
 */
export async function replayTrace(options: ReplayTraceOptions): Promise<ReplayReport> {
  const { trace } = options;
  const now = options.now ?? Date.now;
  const recorded = trace.steps.filter((step) => step.complete);
  const replies = recorded.map((step) => step.raw);
  // Replies their engine cut off once written end cut off again, or the loop would read a fourth copy it did not.
  const cutOff = new Set(recorded.flatMap((step, index) => (step.loopKept ? [index] : [])));
  // Thoughts a server sent apart from the reply come again apart: a step of thoughts alone is not an empty reply.
  const thoughts = new Map(recorded.flatMap((step, index) => (step.thoughts ? [[index, step.thoughts] as const] : [])));
  const firstPrompt = trace.steps[0]?.messages ?? [];
  const builder = new TraceBuilder({ ...trace.run, runId: `${trace.run.id}-replay`, startedAt: now() });
  const result = await runLocalAgent({
    request: trace.run.request,
    // The earlier turns the recorded run was given: between its system prompt and its request.
    history: firstPrompt.slice(1, -1),
    // The tools the turn before called, which the recorded run's ranking favoured.
    recentTools: trace.run.recentTools,
    model: createReplayEngine(replies, { chunkSize: 64, cutOff, thoughts }),
    format: promptFormatOf(trace),
    maxSteps: Math.max(1, replies.length),
    scorer: options.scorer,
    signal: options.signal,
    getTools: options.getTools,
    executeTool: options.executeTool,
    // Only a call that asks waits for the person (and says so in the progress line); the rest run.
    // Judged, asked about and run only for the tool as the step showed it, as in a live run.
    needsApproval: async (_call, { tool }) => (await options.toolWithdrawn?.(tool, 'after this step showed it')) ?? askReason(tool, options.askEveryCall ?? false, options.site) ?? null,
    approve: async (call, { callId, tool }) => {
      const reason = askReason(tool, options.askEveryCall ?? false, options.site);
      if (!reason) return true;
      const origin = toolOriginOf(tool);
      const allowed = await options.confirm({ step: Number(callId.split('.')[0]), callId, name: call.name, arguments: call.arguments, reason, ...(origin ? { origin } : {}) });
      // The page may have swapped the tool while the person decided: a yes holds only for the tool they saw.
      return allowed ? ((await options.toolWithdrawn?.(tool, 'while the user was being asked about this call')) ?? true) : false;
    },
    onEvent: (event) => {
      builder.apply(event, now());
      options.onEvent?.(event);
    },
  });
  const steps = builder.steps();
  return { finishReason: result.finishReason, ...(result.error ? { error: result.error } : {}), steps, divergences: findDivergences(recorded, steps) };
}

/**
 * As a live run asks on a site nobody allowed (see `approvalReason`), in the replay's words: a tool
 * of a frame of another site than `site`, the tab's, asks too.
 */
function askReason(tool: ToolDescriptor, askEveryCall: boolean, site: string | undefined): ReplayAskReason | undefined {
  const origin = toolOriginOf(tool);
  const otherSite = site !== undefined && origin !== undefined && origin !== site;
  const reason = approvalReason(tool, { confirmation: askEveryCall ? 'ask-always' : 'ask-unless-read-only' }, { siteAllowed: false, otherSite });
  if (reason === null) return undefined;
  if (reason === 'consequential' || reason === 'consequence-unknown') return 'consequential';
  if (reason === 'other-site') return 'other-site';
  return reason === 'confirm-all' ? 'confirm-all' : 'not-read-only';
}
