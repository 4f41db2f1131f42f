// Choosing an engine is its own part: the choices queue, so one made before a save lands first.
import type { ReadonlySignal } from '@preact/signals';
import type { Settings, SettingsChange } from '@/lib/settings';
import type { createEngineTrial } from './engine-trial';
import type { OptionsDependencies } from './options-types';
import type { createServerConnection } from './server-connection';

interface EngineChoiceParts {
  store: Pick<NonNullable<OptionsDependencies['settings']>, 'load'>;
  settings: ReadonlySignal<Settings | undefined>;
  update(change: SettingsChange): Promise<boolean>;
  trial: Pick<ReturnType<typeof createEngineTrial>, 'drop'>;
  server: Pick<ReturnType<typeof createServerConnection>, 'reconnect'>;
}

/** The options page's choice of engine, made one at a time in the order the person made them. */
export function createEngineChoice({ store, settings, update, trial, server }: EngineChoiceParts) {
  let choosing: Promise<void> = Promise.resolve();

  /** A new engine starts on its own default model. */
  return function chooseEngine(engine: Settings['engine']): Promise<void> {
    // One choice at a time, in the order made: arrow keys go through the engines faster than a save.
    choosing = choosing.catch(() => undefined).then(async () => {
      if ((await store.load()).engine === engine) return;
      trial.drop();
      // Read as it is written, under the settings lock: a model picked in another page (the side
      // panel's, a second options tab) since the load above counts.
      // Not saved (the page says why): the engine in use is still the one before.
      if (!(await update((current) => (current.engine === engine ? {} : switchedEngine(current, engine))))) return;
      if (settings.value) void server.reconnect(settings.value);
    });
    return choosing;
  };
}

/** The model picked for the engine left is kept for its return; the one chosen gets its own back. */
function switchedEngine(current: Settings, engine: Settings['engine']): Partial<Settings> {
  const { [engine]: returning = '', ...others } = current.modelByEngine;
  return { engine, model: returning, modelByEngine: { ...others, [current.engine]: current.model } };
}
