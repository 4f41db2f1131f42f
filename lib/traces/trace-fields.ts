import { toolOutputLength, type ChatMessage, type ToolOutput } from '@webmcp-agents/chat';
import type { AgentEvent, ModelUsage, ParseResult, ShownTool } from '@webmcp-agents/local-agent';
import { capText, traceCounts, traceLimits } from './trace-limits';
import type { TraceCall, TraceMessage, TraceProblem, TraceStep, TraceTool } from './trace-schema';

// What the events carry, as trace records: untrusted text cut to the trace's limits, numbers checked.

export function traceTool({ tool, score }: ShownTool): TraceTool {
  return {
    name: capText(tool.name, traceLimits.name),
    description: capText(tool.description, traceLimits.message),
    parameters: tool.parameters,
    score: Number.isFinite(score) ? score : 0,
  };
}

/** How many tools the page offered at a step and the best scored of those not shown, where the event says. */
export function traceToolsNotShown(
  event: Extract<AgentEvent, { type: 'step-start' }>,
): Pick<TraceStep, 'offeredCount' | 'notShownCount' | 'notShown'> {
  const kept: Pick<TraceStep, 'offeredCount' | 'notShownCount' | 'notShown'> = {};
  if (isCount(event.offeredCount)) kept.offeredCount = event.offeredCount;
  if (isCount(event.notShownCount)) kept.notShownCount = event.notShownCount;
  if (event.notShown) {
    kept.notShown = event.notShown
      .slice(0, traceCounts.notShownPerStep)
      .map(({ name, score }) => ({ name: capText(name, traceLimits.name), score: Number.isFinite(score) ? score : 0 }));
  }
  return kept;
}

function isCount(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 0;
}

export function traceMessage(message: ChatMessage): TraceMessage {
  return { role: message.role, content: capText(message.content, traceLimits.long) };
}

export function traceParsed(parsed: ParseResult): NonNullable<TraceStep['parsed']> {
  return {
    text: capText(parsed.text, traceLimits.long),
    calls: parsed.calls.map((call) => ({ name: capText(call.name, traceLimits.name), arguments: call.arguments })),
    errors: parsed.errors.map((error) => capText(error, traceLimits.message)),
  };
}

export function traceUsage(usage: ModelUsage): ModelUsage {
  const kept: ModelUsage = {};
  for (const key of ['promptTokens', 'completionTokens', 'timeToFirstTokenMs', 'prefillTokensPerSecond', 'decodeTokensPerSecond'] as const) {
    const value = usage[key];
    if (typeof value === 'number' && Number.isFinite(value)) kept[key] = value;
  }
  return kept;
}

/** A tool's output as the trace keeps it: cut to the limit, with its length before any cut. */
export function traceResult(output: ToolOutput, durationMs: number, endedAt: number): NonNullable<TraceCall['result']> {
  const text = typeof output.text === 'string' ? output.text : String(output.text);
  const length = toolOutputLength({ ...output, text });
  return {
    text: capText(text, traceLimits.result, length),
    ...(output.isError ? { isError: true } : {}),
    ...(output.noAnswer ? { noAnswer: true } : {}),
    length,
    durationMs: finiteOr(durationMs),
    endedAt,
  };
}

export function traceProblem(event: Extract<AgentEvent, { type: 'tool-error' }>): TraceProblem {
  return {
    kind: event.kind,
    message: capText(event.message, traceLimits.message),
    ...(event.callId ? { callId: event.callId } : {}),
    ...(event.name ? { name: capText(event.name, traceLimits.name) } : {}),
    ...(event.withdrawn ? { withdrawn: true } : {}),
  };
}

export function capError(error: { name: string; message: string }) {
  return { name: capText(String(error.name), traceLimits.id), message: capText(String(error.message), traceLimits.message) };
}

/** A duration a trace can keep: a finite, non-negative number, else 0. */
export function finiteOr(value: number): number {
  return Number.isFinite(value) && value >= 0 ? value : 0;
}
