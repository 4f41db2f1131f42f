import { engineLabel } from '../engines/engine-labels';
import type { EnginePreview } from '../engines/engine-preview';
import { sameServer } from '../engines/openai/server-address';
import type { Settings } from '../settings';
import type { EngineHostParts } from './engine-host-parts';
import type { EngineStatus } from './session-state';

/**
 * What the panels say of the engine the settings name before it loads: its name, and where known
 * (`preview`) the model the first request loads, what it downloads, or why it cannot run here at
 * all. A run going on keeps its engine's status until it ends, and the description waits for that.
 */
export function createEngineDescription({ shared, runs, news }: EngineHostParts, requestedModel: () => string | undefined) {
  // The settings the status is about: those of the last load (whose failure it may say), else of the last description.
  let used: Settings | undefined;
  // What the settings name, while a run goes on with the engine it loaded: the panels of the tabs
  // with no run say it now, as their next request uses it.
  let deferred: EngineStatus | undefined;
  function describe(settings: Settings, preview?: EnginePreview): void {
    // A reply refused for a key, an address or a setting the person has changed since (the options
    // say what to fix) may go through now: the panels stop saying it failed until one fails again.
    const changed = used !== undefined && requestSettings(settings) !== requestSettings(used);
    const loadChanged = used !== undefined && loadSettings(settings) !== loadSettings(used);
    if (changed) news.replyFailures.clear();
    // The settings say now what a description held for the runs' end would have said.
    runs.whenRunsEnd(undefined);
    // The engine in use is the one the settings name (a server at the same address), with the
    // model they name: its status stands. Another model is what the next request loads, and an
    // error loading the one before says nothing of it. A load of another model is a run's (every
    // load holds the engine for its run), so it falls to the wait for the runs' end below.
    const label = engineLabel(settings);
    const { state, engineId, engineLabel: shownLabel, errorDuring, model } = shared.status;
    const sameModel = namesModel(settings.model, model, requestedModel());
    // A server at another address is another server, whatever its model is called (two on this computer share a label).
    const sameServerNow = used === undefined || settings.engine !== 'openai' || sameServer(used.openaiBaseUrl, settings.openaiBaseUrl);
    // A load that failed is tried again by the next request: with a new key or address, the error no longer holds.
    const failedBefore = state === 'error' && loadChanged;
    if (state !== 'idle' && !failedBefore && engineId === settings.engine && shownLabel === label && sameServerNow && errorDuring !== 'check' && sameModel) {
      used = settings;
      deferred = undefined;
      return;
    }
    // A run goes on with the engine it loaded: the status says so until it ends, in its tab.
    if (runs.busy()) {
      deferred = statusBeforeLoad(settings, label, preview);
      runs.whenRunsEnd(() => {
        describe(settings, preview);
        shared.publishNow();
      });
      shared.publishNow();
      return;
    }
    deferred = undefined;
    // Another engine or model now: what a reply of the one before said of itself no longer holds.
    used = settings;
    news.replyFailures.clear();
    shared.replace(statusBeforeLoad(settings, label, preview));
  }
  return {
    describe,
    /** A load begins with `settings`: what it and its replies fail with is about them, whatever was described before. */
    loadsWith(settings: Settings): void {
      used = settings;
      deferred = undefined;
    },
    /** What the settings name while runs go on with the engine before (see `describe`), for the tabs with none. */
    deferred: (): EngineStatus | undefined => deferred,
  };
}

/** What of the settings a load reads: where it failed, other ones may not. */
function loadSettings({ engine, model, openaiBaseUrl, openaiApiKey }: Settings): string {
  return JSON.stringify([engine, model, openaiBaseUrl, openaiApiKey]);
}

/** What of the settings goes into the engine's requests: a reply that failed with them may not with others. */
function requestSettings(settings: Settings): string {
  return JSON.stringify([loadSettings(settings), settings.temperature, settings.constrainedDecoding, settings.replyTokens]);
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
    ...(preview?.slowGpu ? { slowGpu: true as const } : {}),
  };
}
