import { storage } from 'wxt/utils/storage';
import { defaultSettings, parseSettings, type Settings } from './settings-schema';

/** Version 1 of the stored settings; bump it and add a migration when the shape changes. */
export const settingsItem = storage.defineItem<Settings>('local:settings', {
  fallback: defaultSettings,
  version: 1,
});

export async function loadSettings(): Promise<Settings> {
  return parseSettings(await settingsItem.getValue());
}

/** Some settings, or how to change them from the current ones (a list added to, say). */
export type SettingsChange = Partial<Settings> | ((current: Settings) => Partial<Settings>);

/**
 * Changes some settings; what is read and what is written are one step. The side panel, the
 * background and the options page may each write at the same moment, and two sites turned off at
 * once must both stay off: a change waits for the one before it, across the extension's pages and
 * its worker (Web Locks; one after another in one context where those are missing).
 */
export function updateSettings(change: SettingsChange): Promise<Settings> {
  return oneChangeAtATime(async () => {
    const next = changedSettings(await loadSettings(), change);
    await settingsItem.setValue(next);
    return next;
  });
}

/** The settings once `change` is made to `current`. */
export function changedSettings(current: Settings, change: SettingsChange): Settings {
  return parseSettings({ ...current, ...(typeof change === 'function' ? change(current) : change) });
}

let lastChange: Promise<unknown> = Promise.resolve();

function oneChangeAtATime<T>(change: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  // The lock is held until the change's promise settles, and `request` answers with its value.
  if (locks) return locks.request('settings', change) as unknown as Promise<T>;
  const next = lastChange.then(change, change);
  lastChange = next.catch(() => undefined);
  return next;
}

export function watchSettings(listener: (settings: Settings) => void): () => void {
  return settingsItem.watch((value) => listener(parseSettings(value)));
}

/**
 * Calls `listener` with the settings as they are, then with each change: the first read is given
 * only where no change was heard while it went on (it may not hold that change), and one that
 * fails is left out (the listener keeps what it had). Returns how to stop.
 */
export function followSettings(listener: (settings: Settings) => void, store: { load(): Promise<Settings>; watch(listener: (settings: Settings) => void): () => void } = { load: loadSettings, watch: watchSettings }): () => void {
  let heard = false;
  let stopped = false;
  const stopWatching = store.watch((settings) => {
    heard = true;
    listener(settings);
  });
  store.load().then(
    (settings) => {
      if (!heard && !stopped) listener(settings);
    },
    () => undefined,
  );
  return () => {
    stopped = true;
    stopWatching();
  };
}
