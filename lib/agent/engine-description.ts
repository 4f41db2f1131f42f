import { engineLabel } from '../engines/engine-labels';
import type { EnginePreview } from '../engines/engine-preview';
import type { Settings } from '../settings';
import type { EngineHostParts } from './engine-host-parts';
import type { EngineStatus } from './session-state';

/**
 * What the panels say of the engine the settings name before it loads: its name, and where known
 * (`preview`) the model the first request loads, what it downloads, or why it cannot run here at
 * all. A run going on keeps its engine's status until it ends, and the description waits for that.
 */
export function createEngineDescription({ shared, runs, news }: EngineHostParts, requestedModel: () => string | undefined) {
  function describe(settings: Settings, preview?: EnginePreview): void {
    // The settings say now what a description held for the runs' end would have said.
    runs.whenRunsEnd(undefined);
    // The engine in use is the one the settings name (a server at the same address), with the
    // model they name: its status stands. Another model is what the next request loads, and an
    // error loading the one before says nothing of it. A load of another model is a run's (every
    // load holds the engine for its run), so it falls to the wait for the runs' end below.
    const label = engineLabel(settings);
    const { state, engineId, engineLabel: shownLabel, errorDuring, model } = shared.status;
    const sameModel = namesModel(settings.model, model, requestedModel());
    if (state !== 'idle' && engineId === settings.engine && shownLabel === label && errorDuring !== 'check' && sameModel) return;
    // A run goes on with the engine it loaded: the status says so until it ends.
    if (runs.busy()) {
      runs.whenRunsEnd(() => {
        describe(settings, preview);
        shared.publishNow();
      });
      return;
    }
    // Another engine or model now: what a reply of the one before said of itself no longer holds.
    news.replyFailures.clear();
    shared.replace(statusBeforeLoad(settings, label, preview));
  }
  return describe;
}

/**
 * Whether the settings' model (`asked`, '' for the default) is the one the status shows: the one
 * asked for when the status was loaded, or named as what loaded (as `keepsModelLoaded` counts it).
 */
function namesModel(asked: string, shown: string, requested: string | undefined): boolean {
  return asked === requested || (asked !== '' && asked === shown);
}

/** The status of an engine not loaded yet: the model the preview found and its download, or why it cannot run here. */
function statusBeforeLoad(settings: Settings, label: string, preview: EnginePreview | undefined): EngineStatus {
  const base = { engineId: settings.engine, engineLabel: label, model: settings.model };
  if (preview && 'error' in preview) return { ...base, state: 'error', error: preview.error, hint: preview.hint, errorDuring: 'check' };
  return {
    ...base,
    model: preview?.model ?? settings.model,
    state: 'idle',
    ...(preview?.downloadMB ? { downloadMB: preview.downloadMB } : {}),
    ...(preview?.goAheadFirst ? { goAheadFirst: true } : {}),
  };
}
