import { raceAbort } from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import type { Settings } from '../settings';
import type { RunTracker } from './run-tracker';

/** The engine made for the settings last used, with the model those settings asked for ('' for the default). */
interface CurrentEngine {
  key: string;
  engine: Engine;
  requestedModel: string;
}

/** A run that keeps the engine it gets from being replaced, and its tab where known. */
interface RunHold {
  tabId: number | undefined;
}

/** The engine a run gets and, where it holds it, how it gives its hold back (see `RunTracker.hold`). */
interface GotEngine {
  engine: Engine;
  release?: () => void;
}

/**
 * Gives each run the engine its settings name, making a new one when they changed. A model on the
 * GPU (`holdsGpu`, WebLLM's) being replaced must go before the next one loads, but not under a run
 * another tab is going through (a reply, or a tool between two replies): the swap waits for those
 * runs to end. Another engine holds nothing shared, and is let go once they have. `unloaded` is
 * told of each engine a swap unloads itself (a model on the GPU, or any engine when no run goes on);
 * one left to the end of the runs (`unloadAfterRuns`) is unloaded then without a word.
 *
 * One swap at a time, for every tab: whoever asks meanwhile waits for it, and a Stop ends only that
 * tab's wait, never the swap, so no load ever starts under a reply still streaming.
 */
export function createEngineSwaps(runs: RunTracker, create: (settings: Settings) => Engine, unloaded: (engine: Engine) => void) {
  let current: CurrentEngine | undefined;
  let swapping: Promise<void> | undefined;

  const retire = async (engine: Engine): Promise<void> => {
    if (!engine.holdsGpu && runs.busy()) return runs.unloadAfterRuns(engine);
    if (runs.busy()) await runs.untilRunsEnd();
    await engine.unload?.().catch(() => {});
    unloaded(engine);
  };

  const swapTo = async (settings: Settings, key: string): Promise<void> => {
    const previous = current;
    if (previous && !keepsModelLoaded(previous, settings)) {
      // None is current from here: where the next engine cannot be made, the old settings asked
      // for again make a new one rather than get back the engine just unloaded.
      current = undefined;
      await retire(previous.engine);
    }
    current = { key, engine: create(settings), requestedModel: settings.model };
  };

  // A run that holds the engine takes its hold in the same turn it gets it, so no swap comes between.
  const handOut = (engine: Engine, hold: RunHold | undefined): GotEngine => (hold ? { engine, release: runs.hold(hold.tabId) } : { engine });

  /** With `hold`, the tab's run keeps the engine from being replaced until it calls `release`. */
  const engineFor = async (settings: Settings, signal: AbortSignal, hold: RunHold | undefined): Promise<GotEngine> => {
    const key = engineKey(settings);
    while (swapping) await raceAbort(swapping, signal);
    if (current?.key === key) return handOut(current.engine, hold);
    const swap = swapTo(settings, key);
    const settled = swap.then(
      () => undefined,
      () => undefined,
    );
    swapping = settled;
    void settled.then(() => {
      if (swapping === settled) swapping = undefined;
    });
    await raceAbort(swap, signal);
    // Another swap may have begun meanwhile: the engine is then had again, from its end.
    if (swapping !== undefined && swapping !== settled) return engineFor(settings, signal, hold);
    return handOut(current!.engine, hold);
  };

  return {
    engineFor,
    /** The engine the last run was given, where one was made. */
    get current(): Engine | undefined {
      return current?.engine;
    },
  };
}

/** Everything an engine reads when it is made; a change makes a new one on the next run. */
function engineKey(settings: Settings): string {
  // "Longest reply" too: a reply cut off says whether raising it would help (see longerReply).
  return JSON.stringify([
    settings.engine,
    settings.model,
    settings.temperature,
    settings.constrainedDecoding,
    settings.modelKeptMinutes,
    settings.replyTokens,
    settings.openaiBaseUrl,
    settings.openaiApiKey,
  ]);
}

/**
 * Only a different model frees the GPU; the same one under new settings stays loaded, for the next
 * engine of that id to take over (see `holdsGpu`). The default ('') is the same model only where it
 * was asked for before: which model it stands for is found out by loading. Other engines hold
 * nothing shared (Chrome's model keeps a session per engine): let go.
 */
function keepsModelLoaded(previous: CurrentEngine, settings: Settings): boolean {
  const sameModel = previous.requestedModel === settings.model || (settings.model !== '' && previous.engine.modelId === settings.model);
  return previous.engine.holdsGpu === true && previous.engine.id === settings.engine && sameModel;
}
