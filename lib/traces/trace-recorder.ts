import type { AgentEvent } from '@webmcp-agents/local-agent';

/** What a trace knows of a run before its first step. */
export interface RunInfo {
  runId: string;
  tabId: number;
  url: string;
  origin: string;
  engineId: string;
  model: string;
  request: string;
  startedAt: number;
  /** The model's prompt format (`engine.format.id`), which a replay uses again; optional. */
  format?: string;
}

/** Where every event of every run goes, as it happens. */
export interface TraceRecorder {
  startRun(info: RunInfo): void;
  record(runId: string, event: AgentEvent): void;
  endRun(runId: string, outcome: string, endedAt: number): void;
  /** Resolves once everything recorded so far is stored. */
  flush?(): Promise<void>;
}

/** Keeps the last runs in memory; the stored recorder replaces it where traces are kept. */
export function createMemoryRecorder(limit = 20) {
  const runs = new Map<string, { info: RunInfo; events: AgentEvent[]; outcome?: string; endedAt?: number }>();
  const recorder: TraceRecorder & { runs: typeof runs } = {
    runs,
    startRun(info) {
      runs.set(info.runId, { info, events: [] });
      for (const key of runs.keys()) if (runs.size > limit) runs.delete(key);
    },
    record(runId, event) {
      runs.get(runId)?.events.push(event);
    },
    endRun(runId, outcome, endedAt) {
      const run = runs.get(runId);
      if (run) Object.assign(run, { outcome, endedAt });
    },
  };
  return recorder;
}
