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

export async function updateSettings(change: Partial<Settings>): Promise<Settings> {
  const next = parseSettings({ ...(await loadSettings()), ...change });
  await settingsItem.setValue(next);
  return next;
}

export function watchSettings(listener: (settings: Settings) => void): () => void {
  return settingsItem.watch((value) => listener(parseSettings(value)));
}
