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
  /** The tools the turn before called, latest first, which the ranking favoured (see runLocalAgent); a replay ranks with them again. */
  recentTools?: readonly string[];
}

/** Where every event of every run goes, as it happens. */
export interface TraceRecorder {
  /**
   * Why a run started now would not be kept, if it would not: the person keeps no traces (see
   * `TraceSettings`), or they cannot be stored here (the database does not open: one a newer
   * version left, say). A recorder without this keeps every run.
   */
  whyNotKept?(): Promise<NotKept | undefined>;
  startRun(info: RunInfo): void;
  record(runId: string, event: AgentEvent): void;
  /** `notice`: what the side panel said under the turn, where it said more than its answer (why it stopped, what failed). */
  endRun(runId: string, outcome: string, endedAt: number, notice?: string): void;
  /** Resolves once everything recorded so far is stored. */
  flush?(): Promise<void>;
}

/** Why runs are not kept as traces now, as `recorder` says: the person turned them off, or they cannot be stored. */
export type NotKept = 'traces-off' | 'cannot-store';

/** Why `recorder` keeps no trace of a run now; undefined where it does, or cannot tell (then it tries). */
export async function whyRecorderKeepsNone(recorder: TraceRecorder): Promise<NotKept | undefined> {
  return recorder.whyNotKept?.().catch(() => undefined);
}

/** Whether runs are kept as traces now, as `recorder` says; where it cannot tell, they are (the default). */
export async function recorderKeepsTraces(recorder: TraceRecorder): Promise<boolean> {
  return (await whyRecorderKeepsNone(recorder)) === undefined;
}
