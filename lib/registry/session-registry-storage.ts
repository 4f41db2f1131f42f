import { storage } from 'wxt/utils/storage';
import { tabEntrySchema, type TabEntry } from './frame-tools';
import type { RegistryStorage } from './tab-tool-registry';

const keyPrefix = 'webmcp-tab-tools:';

/**
 * Keeps each tab's tools in session storage (gone when the browser closes, readable by no
 * content script), one key per tab, so a restarted service worker finds them again.
 */
export const sessionRegistryStorage: RegistryStorage = {
  async load() {
    const saved = await storage.snapshot('session');
    const tabs = new Map<number, TabEntry>();
    for (const [key, value] of Object.entries(saved)) {
      if (!key.startsWith(keyPrefix)) continue;
      const parsed = tabEntrySchema.safeParse(value);
      const tabId = Number(key.slice(keyPrefix.length));
      if (parsed.success && Number.isInteger(tabId)) tabs.set(tabId, parsed.data);
    }
    return tabs;
  },
  async save(tabId, entry) {
    const key = `session:${keyPrefix}${tabId}` as const;
    if (entry) await storage.setItem(key, entry);
    else await storage.removeItem(key);
  },
};
