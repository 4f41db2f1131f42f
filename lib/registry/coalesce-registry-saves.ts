import type { TabEntry } from './frame-tools';
import type { RegistryStorage } from './tab-tool-registry';

/** How often, at most, a tab whose tools keep changing is saved. */
const registrySaveIntervalMs = 1_500;

/** A tab's saves: whether the storage holds it, when its last save began, and the latest entry waiting its turn. */
interface TabSaves {
  stored: boolean;
  startedAt: number;
  done: Promise<void>;
  waiting?: { entry: TabEntry; timer: ReturnType<typeof setTimeout> };
}

/**
 * Saves a tab at most once every `intervalMs` while its tools keep changing, and once more when
 * they stop: a page that changes its tools ten times a second must not keep the worker busy
 * rewriting them all. A change after a quiet spell is saved at once.
 *
 * A worker stopped in between loses only the last changes of a tab it had saved, and a restarted
 * worker asks every saved tab to report again (see `wireToolRegistry`). So a tab that appears, or
 * goes, is saved at once: a tab the storage does not hold would not be asked again.
 */
export function coalesceRegistrySaves(storage: RegistryStorage, intervalMs = registrySaveIntervalMs): RegistryStorage {
  const tabs = new Map<number, TabSaves>();
  const savesOf = (tabId: number): TabSaves => {
    let saves = tabs.get(tabId);
    if (!saves) {
      saves = { stored: false, startedAt: 0, done: Promise.resolve() };
      tabs.set(tabId, saves);
    }
    return saves;
  };
  // One tab's saves reach the storage one after another, in the order they were made.
  const saveInTurn = (tabId: number, saves: TabSaves, entry: TabEntry | undefined): Promise<void> => {
    if (saves.waiting) clearTimeout(saves.waiting.timer);
    delete saves.waiting;
    saves.stored = entry !== undefined;
    const done = saves.done.then(() => {
      saves.startedAt = Date.now();
      return storage.save(tabId, entry);
    });
    saves.done = done.catch(() => undefined);
    // A closed tab is forgotten once its removal is through, unless it came back meanwhile.
    if (!entry) void saves.done.then(() => !saves.stored && tabs.get(tabId) === saves && tabs.delete(tabId));
    return done;
  };
  return {
    async load() {
      const loaded = await storage.load();
      for (const tabId of loaded.keys()) savesOf(tabId).stored = true;
      return loaded;
    },
    save(tabId, entry) {
      const saves = savesOf(tabId);
      if (!entry || !saves.stored) return saveInTurn(tabId, saves, entry);
      if (saves.waiting) {
        saves.waiting.entry = entry;
        return Promise.resolve();
      }
      const wait = saves.startedAt + intervalMs - Date.now();
      if (wait <= 0) return saveInTurn(tabId, saves, entry);
      const timer = setTimeout(() => void saveInTurn(tabId, saves, saves.waiting!.entry).catch(() => undefined), wait);
      saves.waiting = { entry, timer };
      return Promise.resolve();
    },
  };
}
