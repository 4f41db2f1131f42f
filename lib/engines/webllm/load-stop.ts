import type { InitProgressReport } from '@mlc-ai/web-llm';
import { EngineError } from '../engine';
import type { WebLlmEngineLike } from './webllm-module';

/**
 * Why a load was stopped other than by its run's signal: its model is being unloaded (`unloaded`,
 * the default: another model picked, the engine let go) or its files deleted (`deleted`).
 */
export type LoadStopReason = 'unloaded' | 'deleted';

/** A load's Stop: how it cuts the download under way, and whether it came. */
export interface LoadStop {
  /**
   * Stops the load: Stop was pressed, the model is being unloaded, or its files deleted. Twice is
   * once (the first reason stays); safe to pass around.
   */
  readonly stop: (reason?: LoadStopReason) => void;
  readonly stopped: boolean;
  readonly reason: LoadStopReason | undefined;
  /** Sees each of WebLLM's progress reports, to know when the download ends and to end it after a Stop. */
  watch(report: InitProgressReport): void;
}

/**
 * The Stop of one load into `engine`. WebLLM has no way to cancel a load of its own, so a Stop
 * unloads the engine while it downloads, and throws from its progress callback between shards.
 */
export function createLoadStop(engine: WebLlmEngineLike, wasCached: boolean): LoadStop {
  const stopped = new AbortController();
  let copying = false;
  let reason: LoadStopReason | undefined;
  return {
    stop(why = 'unloaded') {
      if (stopped.signal.aborted) return;
      reason = why;
      stopped.abort();
      // Unloading aborts the download under way (config, library, weights) at once. It also clears
      // the engine's state for the model, so not once the weights go into the GPU: that part ends
      // by itself, and a model that finished loading is kept or unloaded as a whole.
      if (!wasCached && !copying) void engine.unload().catch(() => {});
    },
    get stopped() {
      return stopped.signal.aborted;
    },
    get reason() {
      return reason;
    },
    watch(report) {
      const text = String(report.text ?? '');
      // WebLLM's unload() aborts only the fetch under way and then forgets its abort controller, so a
      // Stop while the tokenizer downloads would leave the weights download nothing to stop it. Its
      // weights loader calls this synchronously before the first shard and after each one, outside
      // its try/catch, and reload() ends quietly on an AbortError: throwing here ends the download.
      // Nothing is in the GPU yet; the copy into it is never cut, so no half-loaded weights stay.
      if (stopped.signal.aborted && (text.startsWith('Start to fetch params') || text.startsWith('Fetching param cache'))) throw loadStopped();
      if (text.startsWith('Loading') || (text.startsWith('Fetching param cache') && report.progress >= 1)) copying = true;
    },
  };
}

/**
 * Stop pressed: an AbortError; the model's files deleted in the options, or the model unloaded
 * under a load (another model picked): say so.
 */
export function stoppedError(signal: AbortSignal | undefined, label: string, reason?: LoadStopReason): Error {
  if (signal?.aborted) return loadStopped();
  if (reason === 'deleted') {
    return new EngineError('unavailable', `${label} was deleted in the options before it finished loading.`, 'Send your request again to download it again.');
  }
  return new EngineError('unavailable', `${label} was unloaded before it finished loading.`, 'Send your request again to load it.');
}

export function loadStopped(): DOMException {
  return new DOMException('The model load was stopped.', 'AbortError');
}
