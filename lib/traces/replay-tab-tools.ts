// Its own file: the page's tools as a replay lists and runs them, each time behind the site guard.
import { callResultAsModelReads, toolAsModelReads } from '../registry/as-model-reads';
import { toolOriginOf, toolTargetOf } from '../registry/tool-target';
import { withdrawnFrom } from '../registry/tool-now';
import { agentOffOn } from '../settings/agent-off-on';
import type { SiteGuard } from './guard-site';
import type { ReplayTraceOptions } from './replay-trace';
import type { TraceServiceBackground } from './trace-service';

/**
 * The replay's `getTools` and `executeTool` for tab `tabId`, which it started on `site`. A call
 * that does not answer in `timeoutMs` stops the replay there (`onTimeout`), as it stops a live run.
 */
export function replayTabTools(
  background: TraceServiceBackground,
  tabId: number,
  site: string,
  guard: SiteGuard,
  { timeoutMs, onTimeout }: { timeoutMs: number; onTimeout(name: string): void },
): Pick<ReplayTraceOptions, 'getTools' | 'executeTool' | 'toolWithdrawn'> {
  let toolRan = false;
  return {
    getTools: async () => {
      // As in a real run: the page may be changing its tools after the last call.
      if (toolRan) await background.settleTools?.(tabId, guard.signal);
      toolRan = false;
      const now = await background.getTabTools(tabId);
      const disabledSites = await guard.check(now);
      // As in a live run, a frame of a site where the agent is off offers nothing.
      return (now?.tools ?? []).filter((tool) => !agentOffOn(disabledSites, toolOriginOf(tool) ?? site)).map(toolAsModelReads);
    },
    executeTool: async (call, context) => {
      await guard.check(await background.getTabTools(tabId), toolOriginOf(context.tool));
      toolRan = true;
      const timer = setTimeout(() => onTimeout(call.name), timeoutMs);
      try {
        // The page's own wait ends a moment later: the replay stops first, as a live run does.
        const options = { signal: context.signal, timeoutMs: timeoutMs + 1_000, ...toolTargetOf(context.tool) };
        return callResultAsModelReads(call.name, await background.executeTabTool(tabId, call.name, call.arguments, options));
      } finally {
        clearTimeout(timer);
      }
    },
    toolWithdrawn: async (tool, when) => {
      // An earlier call of the same reply may have changed the page's tools: they settle first, as in a live run.
      if (toolRan) await background.settleTools?.(tabId, guard.signal);
      toolRan = false;
      return withdrawnFrom(await background.getTabTools(tabId), tool, when);
    },
  };
}
