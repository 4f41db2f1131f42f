import { storage } from 'wxt/utils/storage';
import { tabEntrySchema, type FrameTools, type TabEntry } from './frame-tools';
import type { RegistryStorage } from './tab-tool-registry';
import { jsonBytes } from '../text/utf8-length';

const keyPrefix = 'webmcp-tab-tools:';

/**
 * Bytes of tools the registry may keep in session storage, all tabs together. Session storage
 * holds 10 MB for everything and conversations keep 8 MB of it (see storedSessionsBudget): a
 * page with huge tools must not fill the rest, or every later write would fail.
 */
export const savedToolsBudget = 1_500_000;

/**
 * Keeps each tab's tools in session storage (gone when the browser closes, readable by no
 * content script), one key per tab, so a restarted service worker finds them again. A tab whose
 * tools do not fit the budget is kept without them: after a restart it is asked to report again.
 */
export function createSessionRegistryStorage(budget = savedToolsBudget): RegistryStorage {
  const savedBytes = new Map<number, number>();
  return {
    async load() {
      const saved = await storage.snapshot('session');
      const tabs = new Map<number, TabEntry>();
      for (const [key, value] of Object.entries(saved)) {
        if (!key.startsWith(keyPrefix)) continue;
        const parsed = tabEntrySchema.safeParse(value);
        const tabId = Number(key.slice(keyPrefix.length));
        if (!parsed.success || !Number.isInteger(tabId)) continue;
        tabs.set(tabId, parsed.data);
        savedBytes.set(tabId, entryBytes(parsed.data));
      }
      return tabs;
    },
    async save(tabId, entry) {
      const key = `session:${keyPrefix}${tabId}` as const;
      if (!entry) {
        savedBytes.delete(tabId);
        await storage.removeItem(key);
        return;
      }
      let others = 0;
      for (const [otherTabId, bytes] of savedBytes) if (otherTabId !== tabId) others += bytes;
      const bytes = entryBytes(entry);
      const kept = others + bytes <= budget ? entry : { ...entry, frames: {} };
      savedBytes.set(tabId, kept === entry ? bytes : entryBytes(kept));
      await storage.setItem(key, kept);
    },
  };
}

export const sessionRegistryStorage = createSessionRegistryStorage();

/**
 * What storage counts: the entry's JSON in UTF-8 bytes (give or take a comma). Each frame is
 * measured once: a change replaces one frame, and the others keep their objects.
 */
function entryBytes(entry: TabEntry): number {
  let bytes = jsonBytes({ ...entry, frames: {} });
  for (const [frameId, frame] of Object.entries(entry.frames)) bytes += frameId.length + 4 + frameBytes(frame);
  return bytes;
}

const measuredFrames = new WeakMap<FrameTools, number>();

function frameBytes(frame: FrameTools): number {
  let bytes = measuredFrames.get(frame);
  if (bytes === undefined) {
    bytes = jsonBytes(frame);
    measuredFrames.set(frame, bytes);
  }
  return bytes;
}
