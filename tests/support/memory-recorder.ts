import type { RunInfo, TraceRecorder } from '@/lib/traces/trace-recorder';
import type { AgentEvent } from '@webmcp-agents/local-agent';

/** Keeps the last runs in memory, for tests that look at what a run recorded. */
export function createMemoryRecorder(limit = 20) {
  const runs = new Map<string, { info: RunInfo; events: AgentEvent[]; outcome?: string; endedAt?: number; notice?: string }>();
  const recorder: TraceRecorder & { runs: typeof runs } = {
    runs,
    startRun(info) {
      runs.set(info.runId, { info, events: [] });
      for (const key of runs.keys()) if (runs.size > limit) runs.delete(key);
    },
    record(runId, event) {
      runs.get(runId)?.events.push(event);
    },
    endRun(runId, outcome, endedAt, notice) {
      const run = runs.get(runId);
      if (run) Object.assign(run, { outcome, endedAt, notice });
    },
  };
  return recorder;
}
